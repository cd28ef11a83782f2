// Mundaneum's browser bridge, served by `mundaneum serve` (app/web) and loaded before the
// app: it gives the page the window.go and window.runtime objects that the generated Wails
// bindings (frontend/wailsjs) call, backed by the HTTP API and its event stream, so the same
// frontend runs in the desktop window and in a browser.
(function () {
  'use strict';

  // package -> type -> method names, filled in by the server.
  var bindings = /*BINDINGS*/{};

  var meta = document.querySelector('meta[name="mundaneum-token"]');
  var token = meta ? meta.getAttribute('content') || '' : '';

  function apiError(code, message) {
    // Wails rejects a failed call with the error's text; app.Error's text is this JSON.
    return JSON.stringify({ code: code, message: message });
  }

  function call(name, args) {
    return fetch('/api/' + name, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-Mundaneum-Token': token },
      body: JSON.stringify(args),
      credentials: 'same-origin',
      cache: 'no-store',
      redirect: 'error',
    }).then(
      function (res) {
        return res.text().then(function (text) {
          var body;
          try {
            body = text === '' ? null : JSON.parse(text);
          } catch (e) {
            body = undefined;
          }
          if (res.ok) {
            if (body === undefined) throw apiError('internal', name + ': the server sent a reply that is not JSON');
            return body;
          }
          if (body && typeof body === 'object' && typeof body.message === 'string') {
            throw apiError(typeof body.code === 'string' ? body.code : 'internal', body.message);
          }
          throw apiError('internal', name + ': HTTP ' + res.status);
        });
      },
      function (err) {
        throw apiError('unavailable', 'cannot reach the Mundaneum server: ' + (err && err.message ? err.message : String(err)));
      },
    );
  }

  var go = {};
  Object.keys(bindings).forEach(function (pkg) {
    go[pkg] = {};
    Object.keys(bindings[pkg]).forEach(function (type) {
      var obj = {};
      bindings[pkg][type].forEach(function (method) {
        obj[method] = function () {
          return call(type + '.' + method, Array.prototype.slice.call(arguments));
        };
      });
      go[pkg][type] = Object.freeze(obj);
    });
    Object.freeze(go[pkg]);
  });

  // --- events ---------------------------------------------------------------------------
  var listeners = new Map(); // name -> [{cb, left}]

  function dispatch(name, data) {
    var list = listeners.get(name);
    if (!list) return;
    list.slice().forEach(function (l) {
      if (l.left > 0) {
        l.left--;
        if (l.left === 0) off(name, l);
      }
      try {
        l.cb.apply(null, data);
      } catch (e) {
        console.error('mundaneum: event listener for ' + name + ' failed', e);
      }
    });
  }

  function off(name, l) {
    var list = listeners.get(name);
    if (!list) return;
    var i = list.indexOf(l);
    if (i >= 0) list.splice(i, 1);
    if (list.length === 0) listeners.delete(name);
  }

  var source = null;
  var backoff = 1000;
  function connect() {
    source = new EventSource('/api/events?token=' + encodeURIComponent(token));
    source.onopen = function () {
      backoff = 1000;
    };
    source.onmessage = function (e) {
      var msg;
      try {
        msg = JSON.parse(e.data);
      } catch (err) {
        return;
      }
      if (msg && typeof msg.name === 'string') dispatch(msg.name, [msg.data]);
    };
    source.onerror = function () {
      // EventSource retries by itself unless the server refused it (a restart with a new
      // token, too many streams): then try again, more and more slowly.
      if (source.readyState === EventSource.CLOSED) {
        source = null;
        setTimeout(connect, backoff);
        backoff = Math.min(backoff * 2, 30000);
      }
    };
  }
  connect();

  // --- runtime --------------------------------------------------------------------------
  function noop() {}
  function resolved(v) {
    return function () {
      return Promise.resolve(v);
    };
  }
  function unavailable(what) {
    return function () {
      return Promise.reject(what + ' is not available in the browser');
    };
  }
  function log(level) {
    return function (message) {
      console[level]('[mundaneum] ' + message);
    };
  }

  var runtime = {
    EventsOnMultiple: function (name, cb, max) {
      if (typeof cb !== 'function') return noop;
      var l = { cb: cb, left: max > 0 ? max : -1 };
      if (!listeners.has(name)) listeners.set(name, []);
      listeners.get(name).push(l);
      return function () {
        off(name, l);
      };
    },
    EventsOn: function (name, cb) {
      return runtime.EventsOnMultiple(name, cb, -1);
    },
    EventsOnce: function (name, cb) {
      return runtime.EventsOnMultiple(name, cb, 1);
    },
    EventsOff: function () {
      Array.prototype.forEach.call(arguments, function (name) {
        listeners.delete(name);
      });
    },
    EventsOffAll: function () {
      listeners.clear();
    },
    EventsEmit: function (name) {
      dispatch(name, Array.prototype.slice.call(arguments, 1));
    },

    // Only http(s) URLs are opened, in a new tab that cannot reach back to this one.
    BrowserOpenURL: function (url) {
      var u;
      try {
        u = new URL(String(url));
      } catch (e) {
        return;
      }
      if (u.protocol !== 'http:' && u.protocol !== 'https:') {
        console.warn('[mundaneum] refused to open a ' + u.protocol + ' URL');
        return;
      }
      window.open(u.href, '_blank', 'noopener,noreferrer');
    },

    Environment: resolved({ buildType: 'production', platform: 'browser', arch: '' }),
    Quit: function () {
      window.close();
    },
    Hide: noop,
    Show: noop,

    LogPrint: log('log'),
    LogTrace: log('debug'),
    LogDebug: log('debug'),
    LogInfo: log('info'),
    LogWarning: log('warn'),
    LogError: log('error'),
    LogFatal: log('error'),

    WindowReload: function () {
      location.reload();
    },
    WindowReloadApp: function () {
      location.reload();
    },
    WindowSetTitle: function (title) {
      document.title = String(title);
    },
    WindowSetBackgroundColour: noop,
    WindowSetAlwaysOnTop: noop,
    WindowSetSystemDefaultTheme: noop,
    WindowSetLightTheme: noop,
    WindowSetDarkTheme: noop,
    WindowCenter: noop,
    WindowFullscreen: function () {
      if (document.documentElement.requestFullscreen) document.documentElement.requestFullscreen().catch(noop);
    },
    WindowUnfullscreen: function () {
      if (document.fullscreenElement) document.exitFullscreen().catch(noop);
    },
    WindowIsFullscreen: function () {
      return Promise.resolve(!!document.fullscreenElement);
    },
    WindowGetSize: function () {
      return Promise.resolve({ w: window.innerWidth, h: window.innerHeight });
    },
    WindowGetPosition: function () {
      return Promise.resolve({ x: window.screenX, y: window.screenY });
    },
    WindowSetSize: noop,
    WindowSetMaxSize: noop,
    WindowSetMinSize: noop,
    WindowSetPosition: noop,
    WindowHide: noop,
    WindowShow: noop,
    WindowMaximise: noop,
    WindowToggleMaximise: noop,
    WindowUnmaximise: noop,
    WindowMinimise: noop,
    WindowUnminimise: noop,
    WindowIsMaximised: resolved(false),
    WindowIsMinimised: resolved(false),
    WindowIsNormal: resolved(true),
    ScreenGetAll: function () {
      return Promise.resolve([
        { isCurrent: true, isPrimary: true, width: screen.width, height: screen.height },
      ]);
    },

    ClipboardGetText: function () {
      return navigator.clipboard ? navigator.clipboard.readText() : Promise.resolve('');
    },
    ClipboardSetText: function (text) {
      if (!navigator.clipboard) return Promise.resolve(false);
      return navigator.clipboard.writeText(String(text)).then(
        function () {
          return true;
        },
        function () {
          return false;
        },
      );
    },

    OnFileDrop: noop,
    OnFileDropOff: noop,
    CanResolveFilePaths: function () {
      return false;
    },
    ResolveFilePaths: noop,

    InitializeNotifications: resolved(undefined),
    CleanupNotifications: resolved(undefined),
    IsNotificationAvailable: resolved(false),
    RequestNotificationAuthorization: resolved(false),
    CheckNotificationAuthorization: resolved(false),
    SendNotification: unavailable('notifications'),
    SendNotificationWithActions: unavailable('notifications'),
    RegisterNotificationCategory: unavailable('notifications'),
    RemoveNotificationCategory: resolved(undefined),
    RemoveAllPendingNotifications: resolved(undefined),
    RemovePendingNotification: resolved(undefined),
    RemoveAllDeliveredNotifications: resolved(undefined),
    RemoveDeliveredNotification: resolved(undefined),
    RemoveNotification: resolved(undefined),
  };

  Object.defineProperty(window, 'go', { value: Object.freeze(go), enumerable: true });
  Object.defineProperty(window, 'runtime', { value: Object.freeze(runtime), enumerable: true });
})();
