// End to end, `mundaneum serve --public` seen from two browsers (issue 29, items 1-5): the
// owner signs in (a wrong password is refused); a guest in a second browser, with cookies of
// its own, reads, posts only in the library the owner opened to guests, is refused the
// owner's methods whatever the page asks, and undoes only its own change; neither the guest
// nor the owner without the password can undo the edit that protected a library.
import assert from 'node:assert/strict';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { domOffences, launchBrowser, shotDir, startApp, tempDir, until, watch } from './harness.mjs';

const ownerPassword = 'the-owners-pass';
let tmp, app, ownerBrowser, guestBrowser, owner, guest, ownerSeen, guestSeen;

before(async () => {
  tmp = await tempDir('mundaneum-e2e-sharing-');
  const pwFile = path.join(tmp.dir, 'owner-password');
  await writeFile(pwFile, `${ownerPassword}\n`, { mode: 0o600 });
  app = await startApp(tmp.dir, ['--public', '--addr', '127.0.0.1:0', '--owner-password-file', pwFile, '--guests', 'read']);
  // Two browsers, each with a profile (and so cookies) of its own.
  await mkdir(path.join(tmp.dir, 'owner'), { recursive: true });
  await mkdir(path.join(tmp.dir, 'guest'), { recursive: true });
  ownerBrowser = await launchBrowser(path.join(tmp.dir, 'owner'));
  guestBrowser = await launchBrowser(path.join(tmp.dir, 'guest'));
  owner = await ownerBrowser.context.newPage();
  guest = await guestBrowser.context.newPage();
  for (const p of [owner, guest]) p.setDefaultTimeout(10000);
  ownerSeen = await watch(owner);
  guestSeen = await watch(guest);
  await mkdir(shotDir, { recursive: true });
});

after(async () => {
  await ownerBrowser?.close();
  await guestBrowser?.close();
  const code = await app?.stop();
  await tmp?.cleanup();
  assert.equal(code, 0, `mundaneum serve exited with ${code}:\n${app?.output()}`);
});

async function clean(page, seen) {
  assert.deepEqual(await domOffences(page), []);
  assert.deepEqual(seen.dialogs, []);
  assert.deepEqual(seen.errors, []);
}

/** Calls a bound method from a page, as its own scripts would: its cookie, its token. */
function callFrom(page, method, ...args) {
  return page.evaluate(
    ([m, a]) =>
      window.go.app.App[m](...a).then(
        (v) => ({ ok: true, v }),
        (e) => ({ ok: false, e: String(e) }),
      ),
    [method, args],
  );
}

function input(p) {
  return { title: '', url: '', notes: '', body: '', tags: [], purpose: '', createOnly: false, order: '', image: '', view: '', author: '', email: '', password: '', libraryPassword: '', ...p };
}

async function openLibrary(page, ...titles) {
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: /Library/ }).click();
  await page.getByRole('heading', { name: 'Library', level: 2 }).waitFor();
  for (const t of titles) {
    await page.getByRole('list', { name: 'Libraries' }).getByRole('link', { name: t, exact: true }).click();
    await page.getByRole('heading', { name: t, level: 2 }).waitFor();
  }
}

let board, closed, secret;

test('the owner signs in; a wrong password is refused', async () => {
  // Guests may read here, so the page comes in as a guest until its owner signs in.
  await owner.goto(app.url);
  await owner.getByText(/You are guest [0-9a-f]{4}/).waitFor();
  assert.equal((await callFrom(owner, 'Sharing')).ok, false, 'the owner’s methods before signing in');
  await owner.getByRole('button', { name: 'Sign in as the owner' }).click();
  const form = owner.getByRole('form', { name: 'Sign in as the owner' });
  await form.waitFor();
  assert.equal(await owner.getByRole('navigation', { name: 'Main' }).count(), 0, 'the app shows beside the sign-in');
  await form.getByLabel('Owner’s password').fill('not-the-password');
  await form.getByRole('button', { name: 'Sign in' }).click();
  await form.getByRole('alert').filter({ hasText: 'not the owner' }).waitFor();
  await owner.screenshot({ path: path.join(shotDir, 'sharing-signin.png') });
  await form.getByLabel('Owner’s password').fill(ownerPassword);
  await form.getByRole('button', { name: 'Sign in' }).click();
  await owner.getByText('Signed in as the owner.').waitFor();
  await owner.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: /Settings/ }).waitFor();

  // The libraries of the tests that follow, made by the owner's page.
  board = (await callFrom(owner, 'LibraryCreate', 1, input({ title: 'Board' }))).v;
  closed = (await callFrom(owner, 'LibraryCreate', 1, input({ title: 'Closed' }))).v;
  secret = (await callFrom(owner, 'LibraryCreate', 1, input({ title: 'Secret' }))).v;
  await callFrom(owner, 'LibraryPoint', closed.id, input({ url: 'https://kept.example/', title: 'Kept' }));
  // Open the board to guests through the library's Edit form.
  await openLibrary(owner, 'Board');
  await owner.getByRole('button', { name: 'Edit this library' }).click();
  const edit = owner.getByRole('form', { name: 'Edit library' });
  await edit.getByLabel(/Guests may post here/).check();
  await edit.getByRole('button', { name: 'Save' }).click();
  await owner.getByText('open to guests').waitFor();
  await clean(owner, ownerSeen);
});

test('a guest in another browser reads, and posts only where the owner opened the library', async () => {
  await guest.goto(app.url);
  await guest.getByText(/You are guest [0-9a-f]{4}/).waitFor();
  const nav = guest.getByRole('navigation', { name: 'Main' });
  assert.equal(await nav.getByRole('link', { name: /Settings/ }).count(), 0, 'a guest is offered the settings');
  await guest.getByText(/search index/).waitFor();
  assert.ok(!(await guest.content()).includes(tmp.dir), 'a guest reads where the owner keeps the workspace');
  // The owner's methods are refused by the server, whatever the page asks.
  for (const [m, args] of [
    ['StartCrawl', [{ seeds: ['http://127.0.0.1:1/'], scope: 'site' }]],
    ['SetGuestAccess', ['none']],
    ['SetOwnerPassword', ['', 'a-guests-password']],
    ['LibraryEdit', [board.id, { openToGuests: false }, '']],
  ]) {
    const r = await callFrom(guest, m, ...args);
    assert.equal(r.ok, false, `a guest's ${m} went through`);
  }
  // Posting into a closed library is refused, by the backend.
  const r = await callFrom(guest, 'LibraryPoint', closed.id, input({ url: 'https://spam.example/' }));
  assert.equal(r.ok, false);
  assert.match(r.e, /not in a library open to guests/);
  // Into the board it works, through the page.
  await openLibrary(guest, 'Board');
  await guest.getByRole('button', { name: 'Add pointer' }).click();
  const form = guest.getByRole('form', { name: 'New pointer' });
  await form.getByLabel('Address').fill('https://guest.example/');
  await form.getByLabel('Title').fill('A guest’s link');
  await form.getByRole('button', { name: 'Add' }).click();
  await guest.getByText('Added “A guest’s link”.').waitFor();
  await guest.screenshot({ path: path.join(shotDir, 'sharing-guest.png') });
  await clean(guest, guestSeen);
});

test('undo takes back only what the same person did', async () => {
  // The owner is not offered the guest's change.
  await owner.reload();
  await openLibrary(owner, 'Board');
  await owner.getByText(/Last change, by guest [0-9a-f]{4}: added “?"?A guest’s link/).waitFor();
  assert.equal(await owner.getByRole('button', { name: /^Undo/ }).count(), 0);
  const refused = await callFrom(owner, 'LibraryUndo', '');
  assert.equal(refused.ok, false, 'the owner undid a guest’s change');
  // The guest undoes it.
  await guest.reload();
  await openLibrary(guest, 'Board');
  await guest.getByRole('button', { name: /^Undo: added "A guest’s link"/ }).click();
  await guest.getByText(/^Undone: added "A guest’s link"/).waitFor();
  await until(async () => (await guest.getByRole('link', { name: 'A guest’s link' }).count()) === 0, { what: 'the pointer to go' });
  await clean(guest, guestSeen);
});

test('the edit that protected a library is undone only with its password', async () => {
  // The owner protects Secret by editing it.
  await openLibrary(owner, 'Secret');
  await owner.getByRole('button', { name: 'Edit this library' }).click();
  const edit = owner.getByRole('form', { name: 'Edit library' });
  await edit.getByText(/^Author/).click();
  await edit.getByLabel(/New password/).fill('secret-pw');
  await edit.getByRole('button', { name: 'Save' }).click();
  await owner.getByText('🔒 protected').waitFor();
  // The guest is offered no undo of it, and the server refuses one.
  await guest.reload();
  await openLibrary(guest, 'Secret');
  await guest.getByText(/Last change, by the owner: edited "Secret"/).waitFor();
  assert.equal((await callFrom(guest, 'LibraryUndo', '')).ok, false);
  // The owner's own Undo asks for the password it set, and refuses a wrong one.
  await owner.getByRole('button', { name: /^Undo: edited "Secret"/ }).click();
  const ask = owner.getByRole('form', { name: 'Password needed' });
  await ask.getByLabel('Password').fill('wrong');
  await ask.getByRole('button', { name: 'Go on' }).click();
  await ask.getByRole('alert').filter({ hasText: 'not the password' }).waitFor();
  assert.equal(await owner.getByText('🔒 protected').count(), 1);
  await ask.getByLabel('Password').fill('secret-pw');
  await ask.getByRole('button', { name: 'Go on' }).click();
  await owner.getByText(/^Undone: edited "Secret"/).waitFor();
  await until(async () => (await owner.getByText('🔒 protected').count()) === 0, { what: 'the lock to go' });
  await clean(owner, ownerSeen);
});

test('signing out leaves the owner a guest, who may sign in again', async () => {
  await owner.getByRole('button', { name: 'Sign out' }).click();
  await owner.getByText(/You are guest [0-9a-f]{4}/).waitFor();
  assert.equal((await callFrom(owner, 'Sharing')).ok, false, 'the owner’s methods after signing out');
  await owner.getByRole('button', { name: 'Sign in as the owner' }).click();
  await owner.getByRole('form', { name: 'Sign in as the owner' }).waitFor();
  await clean(owner, ownerSeen);
});
