// What the app knows of maintenance: the tasks, the run under way (live from
// check:progress and check:done), and the latest reports. Started once by the app, so
// that a scheduled run's progress and news are followed whatever view is open.
import {
  checkReports,
  checkState,
  checkTasks,
  onEvent,
  toApiError,
  type CheckProgress,
  type CheckReportInfo,
  type CheckTask,
} from '../api';
import { single } from './single';

class Maintenance {
  tasks = $state<CheckTask[]>([]);
  tasksLoaded = $state(false);
  tasksError = $state('');
  /** The run under way, or the last one that ended in this session. */
  run = $state<CheckProgress | null>(null);
  reports = $state<CheckReportInfo[]>([]);
  reportsError = $state('');

  refreshTasks = single(async () => {
    try {
      this.tasks = await checkTasks();
      this.tasksError = '';
    } catch (err) {
      this.tasksError = toApiError(err).message;
    } finally {
      this.tasksLoaded = true;
    }
  });

  refreshReports = single(async () => {
    try {
      this.reports = await checkReports('', 200);
      this.reportsError = '';
    } catch (err) {
      this.reportsError = toApiError(err).message;
    }
  });

  /** Reports whether a run is under way. */
  get running(): boolean {
    return this.run?.state === 'running';
  }

  /** Takes the answer of a call that started a run, unless an event about it came first. */
  started(p: CheckProgress) {
    if (this.run?.runId !== p.runId) this.run = p;
  }

  /** The latest report of a task, if any. */
  latest(task: string): CheckReportInfo | undefined {
    return this.reports.find((r) => r.task === task);
  }

  /** Loads the state and follows the events; returns the stop function. */
  start(): () => void {
    const offs = [
      onEvent('check:progress', (p) => {
        this.run = p;
      }),
      onEvent('check:done', (p) => {
        this.run = p;
        void this.refreshTasks();
        void this.refreshReports();
      }),
      onEvent('workspace:changed', () => this.reload()),
    ];
    this.reload();
    return () => offs.forEach((off) => off());
  }

  reload() {
    this.tasks = [];
    this.tasksLoaded = false;
    this.reports = [];
    this.run = null;
    void this.refreshTasks();
    void this.refreshReports();
    void checkState()
      .then((p) => {
        if (p.state === 'running') this.run = p;
      })
      .catch(() => {});
  }
}

/** The app's maintenance state. */
export const maintenance = new Maintenance();
