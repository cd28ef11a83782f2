// Maintenance (MOMspider's link checks and change reports) over the bound API. Part of
// src/api: the only code that touches the generated bindings.
import * as App from '../../wailsjs/go/app/App';
import { call } from './call';
import type {
  CheckImport,
  CheckProgress,
  CheckReportInfo,
  CheckReportPage,
  AvoidRule,
  CheckRun,
  CheckSettings,
  CheckTask,
  LinkCheck,
  RobotsSite,
} from './types';

function progressOf(p: CheckProgress): CheckProgress {
  return { ...p, verdicts: p.verdicts ?? {} };
}

/** The maintenance tasks, by name. */
export async function checkTasks(): Promise<CheckTask[]> {
  return call(() => App.CheckTasks());
}

/** Adds a task (id 0) or changes one. */
export function saveCheckTask(t: CheckTask): Promise<CheckTask> {
  return call(() => App.SaveCheckTask(t));
}

/** Removes a task with its rules and reports. */
export function deleteCheckTask(name: string): Promise<void> {
  return call(() => App.DeleteCheckTask(name));
}

/** Runs the named tasks (all of them for none); progress arrives as check:progress events. */
export async function runCheckTasks(names: string[]): Promise<CheckProgress> {
  return progressOf(await call(() => App.RunCheckTasks(names)));
}

/** Tests links now; the run's results are read with checkRunLinks once check:done arrives. */
export async function checkLinks(urls: string[]): Promise<CheckProgress> {
  return progressOf(await call(() => App.CheckLinks(urls)));
}

/** Stops the run under way. */
export function cancelCheck(): Promise<void> {
  return call(() => App.CancelCheck());
}

/** The run under way, or state "idle". */
export async function checkState(): Promise<CheckProgress> {
  return progressOf(await call(() => App.CheckState()));
}

/** The latest runs, newest first. */
export async function checkRuns(limit = 20): Promise<CheckRun[]> {
  return call(() => App.CheckRuns(limit));
}

/** The links a run tested. */
export async function checkRunLinks(runId: number, limit = 10000): Promise<LinkCheck[]> {
  return call(() => App.CheckRunLinks(runId, limit));
}

/** The latest checks of one URL, newest first. */
export async function linkHistory(url: string, limit = 50): Promise<LinkCheck[]> {
  return call(() => App.LinkHistory(url, limit));
}

/** Reports, newest first: one task's, or every task's for "". */
export async function checkReports(task = '', limit = 50): Promise<CheckReportInfo[]> {
  return call(() => App.CheckReports(task, limit));
}

/** A report with one page of its documents and the links they reference. */
export async function checkReport(id: number, offset = 0, limit = 50): Promise<CheckReportPage> {
  const r = await call(() => App.CheckReport(id, offset, limit));
  return { ...r, counts: { ...r.counts, verdicts: r.counts.verdicts ?? {} } };
}

/** A report as a document: html (MOMspider's index), csv or json. */
export function exportCheckReport(id: number, format: string): Promise<string> {
  return call(() => App.ExportCheckReport(id, format));
}

/** Saves a report with the window's file dialog; the path, "" when cancelled. */
export function saveCheckReport(id: number, format: string): Promise<string> {
  return call(() => App.SaveCheckReport(id, format));
}

/** The avoid and leaf rules of a task, or the system-wide ones for "". */
export async function avoidRules(task = ''): Promise<AvoidRule[]> {
  return call(() => App.AvoidRules(task));
}

/** Adds (or replaces, for the same prefix) a rule. */
export function addAvoidRule(r: AvoidRule): Promise<AvoidRule> {
  return call(() => App.AddAvoidRule(r));
}

/** Removes a rule. */
export function deleteAvoidRule(id: number): Promise<void> {
  return call(() => App.DeleteAvoidRule(id));
}

/** Imports one of MOMspider's files: kind avoid (into task's rules, or the system-wide ones), sites or instructions. */
export async function importCheckFile(kind: 'avoid' | 'sites' | 'instructions', task: string, text: string): Promise<CheckImport> {
  return call(() => App.ImportCheckFile(kind, task, text));
}

/** Writes rules (kind avoid) or the robots.txt table (kind sites) in MOMspider's format. */
export function exportCheckFile(kind: 'avoid' | 'sites', task = ''): Promise<string> {
  return call(() => App.ExportCheckFile(kind, task));
}

/** The robots.txt table: which sites' robots.txt is kept, until when. */
export async function robotsSites(): Promise<RobotsSite[]> {
  return call(() => App.RobotsSites());
}

/** Sets until when a site's robots.txt holds: "now", "never" or a date. */
export function setRobotsExpiry(origin: string, expires: string): Promise<void> {
  return call(() => App.SetRobotsExpiry(origin, expires));
}

/** The maintenance settings. */
export function checkSettings(): Promise<CheckSettings> {
  return call(() => App.CheckSettings());
}

/** Checks and stores the maintenance settings. */
export function saveCheckSettings(s: CheckSettings): Promise<CheckSettings> {
  return call(() => App.SaveCheckSettings(s));
}
