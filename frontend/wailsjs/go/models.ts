export namespace app {
	
	export interface ArchiveFormat {
	    name: string;
	    title: string;
	    extensions: string[];
	}
	export interface ArchiveJob {
	    id: number;
	    op: string;
	    format: string;
	    name: string;
	    path: string;
	    state: string;
	    done: number;
	    total: number;
	    pages: number;
	    bytes: number;
	    elapsedMs: number;
	    rate: number;
	    byteRate: number;
	    note: string;
	    error: string;
	    crawlId: number;
	    import?: archive.ImportReport;
	    export?: archive.ExportReport;
	}
	export interface AvoidRule {
	    id: number;
	    taskId: number;
	    action: string;
	    prefix: string;
	    expires: string;
	    active: boolean;
	    note: string;
	}
	export interface CaptureClient {
	    id: number;
	    origin: string;
	    browser: string;
	    paired: string;
	    lastUsed: string;
	    captures: number;
	}
	export interface PairingCode {
	    code: string;
	    expires: string;
	}
	export interface CaptureInfo {
	    door: string;
	    address: string;
	    port: number;
	    listening: boolean;
	    error: string;
	    clients: CaptureClient[];
	    code?: PairingCode;
	}
	export interface CheckHop {
	    status: number;
	    url: string;
	}
	export interface CheckImport {
	    added: number;
	    names: string[];
	    skipped: string[];
	    unknown: string[];
	    warnings: string[];
	}
	export interface CheckNewsCounts {
	    moved: number;
	    broken: number;
	    changed: number;
	    expiring: number;
	    newMoved: number;
	    newBroken: number;
	    newChanged: number;
	    newExpiring: number;
	    fragments: number;
	    dead: number;
	    failing: number;
	    deadFrom: string;
	    checksLeft: number;
	}
	export interface CheckNotice {
	    task: string;
	    reportId: number;
	    title: string;
	    text: string;
	}
	export interface CheckProgress {
	    runId: number;
	    state: string;
	    tasks: string[];
	    tested: number;
	    queued: number;
	    documents: number;
	    requests: number;
	    verdicts: Record<string, number>;
	    perSec: number;
	    elapsedMs: number;
	    notices: CheckNotice[];
	    error: string;
	    note: string;
	}
	export interface CheckReportChoice {
	    moved: boolean;
	    broken: boolean;
	    changedDays: number;
	    expiringDays: number;
	}
	export interface CheckReportInfo {
	    id: number;
	    runId: number;
	    task: string;
	    priorId: number;
	    createdAt: string;
	    documents: number;
	    news: CheckNewsCounts;
	}
	export interface CheckReportPage {
	    id: number;
	    task: report.Task;
	    runId: number;
	    priorId: number;
	    generated: string;
	    started: string;
	    elapsed: string;
	    program: string;
	    options: report.Option[];
	    note: string;
	    counts: report.Counts;
	    offset: number;
	    links: report.Link[];
	    docs: report.Doc[];
	    news: report.News;
	}
	export interface CheckRun {
	    id: number;
	    startedAt: string;
	    finishedAt: string;
	    state: string;
	    tasks: string[];
	    tested: number;
	    requests: number;
	    error: string;
	}
	export interface CheckSMTP {
	    host: string;
	    port: number;
	    tls: string;
	    from: string;
	    username: string;
	    passwordFile: string;
	}
	export interface CheckSettings {
	    deadChecks: number;
	    deadDays: number;
	    robotsDays: number;
	    notify: boolean;
	    smtp: CheckSMTP;
	}
	export interface CheckTask {
	    id: number;
	    name: string;
	    type: string;
	    top: string;
	    title: string;
	    for: string;
	    email: boolean;
	    report: CheckReportChoice;
	    everyMinutes: number;
	    maxPages: number;
	    maxDepth: number;
	    indexFile: string;
	    internalOnly: boolean;
	    createdAt: string;
	    lastRunAt: string;
	    nextRunAt: string;
	}
	export interface CopyAssets {
	    shown: number;
	    missing: number;
	    bytes: number;
	}
	export interface Crawl {
	    id: number;
	    seeds: string[];
	    scope: string;
	    state: string;
	    fetched: number;
	    failed: number;
	    skipped: number;
	    recorded: number;
	    redirected: number;
	    queued: number;
	    toVisit: number;
	    visited: number;
	    notDue: number;
	    bytes: number;
	    pagesPerSec: number;
	    elapsedSeconds: number;
	    done: number;
	    etaSeconds: number;
	    current: string;
	    maxPages: number;
	    maxSeconds: number;
	    startedAt: string;
	    finishedAt: string;
	    note: string;
	    error: string;
	    rules: string;
	    toward: string;
	    searchable: number;
	}
	export interface CrawlPage {
	    id: number;
	    url: string;
	    title: string;
	    state: string;
	    reason: string;
	    reasonText: string;
	    detail: string;
	    status: number;
	    depth: number;
	}
	export interface CrawlPages {
	    total: number;
	    pages: CrawlPage[];
	}
	export interface CrawlRequest {
	    seeds: string[];
	    scope: string;
	    maxDepth: number;
	    maxPages: number;
	    maxSeconds: number;
	    maxPerHost: number;
	    maxQueryVariants: number;
	    sitemaps: boolean;
	    agents: number;
	    perHost: number;
	    delayMs: number;
	    refresh: boolean;
	    rules: string;
	    toward: string;
	    types?: string[];
	    keep?: string;
	    keepLast?: number;
	    requisites?: boolean;
	    render: string;
	    renderExternal: boolean;
	    renderFullPage: boolean;
	}
	export interface DiffOp {
	    kind: string;
	    text: string;
	}
	export interface DocumentType {
	    type: string;
	    summariser: string;
	    description: string;
	    default: boolean;
	    always: boolean;
	}
	export interface FacetCount {
	    value: string;
	    count: number;
	    refine: string;
	}
	export interface FacetResults {
	    query: string;
	    facets: Record<string, Array<FacetCount>>;
	    approx: boolean;
	    didYouMean: string;
	    corrected: boolean;
	    tookMs: number;
	}
	export interface IndexStatus {
	    searchable: number;
	    searchablePages: number;
	    searchableFiles: number;
	    waiting: number;
	    updating: number;
	    current: boolean;
	    rebuilding: boolean;
	    reason: string;
	    phraseIndex: number;
	    phraseBehind: number;
	    error: string;
	    summary: string;
	}
	export interface LibHealth {
	    verdict: string;
	    status: number;
	    finalUrl: string;
	    reason: string;
	    checkedAt: string;
	    dead: boolean;
	    permanent: boolean;
	}
	export interface LibView {
	    name: string;
	    query: string;
	    openedAt: string;
	    lastTotal: number;
	}
	export interface LibKnown {
	    pageId: number;
	    title: string;
	    state: string;
	    status: number;
	    fetchedAt: string;
	    copy: boolean;
	    reason: string;
	    detail: string;
	}
	export interface LibPosting {
	    id: number;
	    parentId: number;
	    path: string;
	    kind: string;
	    title: string;
	    url: string;
	    aliases: string[];
	    notes: string;
	    tags: string[];
	    purpose: string;
	    createOnly: boolean;
	    order: string;
	    position: number;
	    protected: boolean;
	    openToGuests: boolean;
	    author: string;
	    email: string;
	    hasImage: boolean;
	    created: string;
	    updated: string;
	    libraries: number;
	    postings: number;
	    known?: LibKnown;
	    view?: LibView;
	    health?: LibHealth;
	}
	export interface LibAdded {
	    posting: LibPosting;
	    alsoIn: string[];
	}
	export interface LibChoice {
	    id: number;
	    path: string;
	    recent: boolean;
	}
	export interface LibCrumb {
	    id: number;
	    title: string;
	    path: string;
	}
	export interface LibDetail {
	    posting: LibPosting;
	    crumbs: LibCrumb[];
	    image: string;
	    body: string;
	    document: string;
	    links: string[];
	}
	export interface LibEdit {
	    title?: string;
	    url?: string;
	    notes?: string;
	    body?: string;
	    tags?: string[];
	    purpose?: string;
	    createOnly?: boolean;
	    order?: string;
	    image: string;
	    clearImage: boolean;
	    author?: string;
	    email?: string;
	    newPassword?: string;
	    openToGuests?: boolean;
	}
	export interface LibExport {
	    name: string;
	    content: string;
	    note: string;
	}
	
	export interface LibHit {
	    id: number;
	    kind: string;
	    title: string;
	    url: string;
	    path: string;
	    tags: string[];
	    snippet: string[];
	    pageId: number;
	    status: number;
	    fetchedAt: string;
	}
	export interface LibProblem {
	    line: number;
	    reason: string;
	}
	export interface LibImport {
	    format: string;
	    libraries: number;
	    pointers: number;
	    reports: number;
	    views: number;
	    merged: number;
	    duplicates: number;
	    elsewhere: number;
	    skipped: number;
	    problems: LibProblem[];
	    more: number;
	    seconds: number;
	}
	export interface LibInput {
	    title: string;
	    url: string;
	    notes: string;
	    body: string;
	    tags: string[];
	    purpose: string;
	    createOnly: boolean;
	    order: string;
	    image: string;
	    view: string;
	    author: string;
	    email: string;
	    password: string;
	    libraryPassword: string;
	}
	
	export interface LibPage {
	    library: LibPosting;
	    crumbs: LibCrumb[];
	    image: string;
	    order: string;
	    libraries: LibPosting[];
	    postings: LibPosting[];
	    total: number;
	    lastChange: string;
	    undoProtected: boolean;
	    lastChangeBy: string;
	    lastChangeMine: boolean;
	    nextRedo: string;
	    redoProtected: boolean;
	    nextRedoMine: boolean;
	}
	
	
	export interface LibRecent {
	    postings: LibPosting[];
	    total: number;
	}
	export interface LibRemoval {
	    libraries: number;
	    pointers: number;
	    reports: number;
	    views: number;
	    titles: string[];
	    protected: string[];
	}
	export interface LibRendered {
	    document: string;
	    links: string[];
	}
	export interface LibSearchResults {
	    total: number;
	    totalApprox: boolean;
	    hits: LibHit[];
	    note: string;
	    tookMs: number;
	}
	export interface LibTag {
	    tag: string;
	    count: number;
	}
	
	export interface LinkCheck {
	    url: string;
	    verdict: string;
	    code: string;
	    status: number;
	    finalUrl: string;
	    permanent: boolean;
	    chain: CheckHop[];
	    reason: string;
	    method: string;
	    ms: number;
	    title: string;
	    at: string;
	    dead: boolean;
	    failures: number;
	    failingSince: string;
	}
	export interface LinkInfo {
	    url: string;
	    page: number;
	    known: number;
	}
	export interface LinkRef {
	    pageId: number;
	    url: string;
	    title: string;
	    state: string;
	    status: number;
	    kind: string;
	    anchor: string;
	    rel: string;
	}
	export interface TextBlock {
	    kind: string;
	    text: string;
	    level?: number;
	    depth?: number;
	    marker?: string;
	    cells?: string[];
	    head?: boolean;
	}
	export interface SummaryAttr {
	    name: string;
	    value: string;
	}
	export interface OfflineCopy {
	    pageId: number;
	    url: string;
	    title: string;
	    contentType: string;
	    fetchedAt: string;
	    document: string;
	    text: string;
	    summariser?: string;
	    attrs?: SummaryAttr[];
	    canOpen?: boolean;
	    blocks: TextBlock[];
	    asPage: boolean;
	    assets: CopyAssets;
	    versionId: number;
	    replay: boolean;
	}
	export interface ScreenshotInfo {
	    versionId: number;
	    kind: string;
	    width: number;
	    height: number;
	    bytes: number;
	    takenAt: string;
	}
	export interface PageRender {
	    state: string;
	    why: string;
	    signal: string;
	    detail: string;
	    text: string;
	}
	export interface Page {
	    id: number;
	    url: string;
	    host: string;
	    state: string;
	    reason: string;
	    reasonText: string;
	    detail: string;
	    status: number;
	    finalUrl: string;
	    contentType: string;
	    charset: string;
	    lang: string;
	    title: string;
	    description: string;
	    keywords: string;
	    author: string;
	    owner: string;
	    canonical: string;
	    alternates: number;
	    size: number;
	    duplicateOf: number;
	    duplicateUrl: string;
	    etag: string;
	    lastModified: string;
	    expires: string;
	    depth: number;
	    parentUrl: string;
	    crawlId: number;
	    problems: string[];
	    noindex: boolean;
	    nofollow: boolean;
	    cached: boolean;
	    discoveredAt: string;
	    fetchedAt: string;
	    changedAt: string;
	    confirmedAt: string;
	    refreshAt: string;
	    inlinks: number;
	    outlinks: number;
	    linksOut: LinkRef[];
	    linksIn: LinkRef[];
	    render?: PageRender;
	    screenshots: ScreenshotInfo[];
	}
	export interface PageVersion {
	    id: number;
	    n: number;
	    fetchedAt: string;
	    confirmedAt: string;
	    confirmedStatus: number;
	    status: number;
	    size: number;
	    contentType: string;
	    title: string;
	    flag: string;
	    current: boolean;
	    cached: boolean;
	    crawlId: number;
	    hash: string;
	    header?: string;
	}
	export interface PageDiff {
	    pageId: number;
	    url: string;
	    from?: PageVersion;
	    to: PageVersion;
	    added: number;
	    removed: number;
	    same: boolean;
	    ops: DiffOp[];
	}
	export interface PageRelations {
	    links: graph.Links;
	    elements: graph.Element[];
	    clickDepth: graph.Depth;
	}
	
	
	
	export interface Result {
	    pageId: number;
	    url: string;
	    title: string;
	    host: string;
	    type: string;
	    state: string;
	    status: number;
	    score: number;
	    snippet: string[];
	    copies: number;
	    alternates: number;
	    reason: string;
	    fetchedAt: string;
	    new: boolean;
	    changedAt: string;
	    versions: number;
	    flag?: string;
	    author?: string;
	    pages?: number;
	    summariser?: string;
	    source?: string;
	    explain?: string;
	}
	export interface RetentionInfo {
	    crawlId: number;
	    keep: string;
	    last: number;
	    own: boolean;
	    versions: number;
	    bodies: number;
	    bytes: number;
	    prunedVersions: number;
	    prunedBytes: number;
	}
	export interface RobotsSite {
	    origin: string;
	    status: number;
	    bytes: number;
	    fetchedAt: string;
	    expiresAt: string;
	    never: boolean;
	}
	export interface RuleElementTest {
	    crawlId: number;
	    family: string;
	    visited: boolean;
	    locals: number[];
	    complete: boolean;
	    value: string;
	    potential: string;
	    reason: string;
	    atom: string;
	    line: number;
	    column: number;
	    from: number;
	    to: number;
	}
	export interface RuleError {
	    line: number;
	    column: number;
	    message: string;
	}
	export interface RuleVerdict {
	    value: string;
	    potential: string;
	    reason: string;
	    atom: string;
	    line: number;
	    column: number;
	    from: number;
	    to: number;
	}
	export interface RuleLocalTest {
	    selector: string;
	    line: number;
	    column: number;
	    from: number;
	    to: number;
	    active: boolean;
	    through: string;
	    ifActive: RuleVerdict;
	}
	export interface RuleSpan {
	    kind: string;
	    from: number;
	    to: number;
	}
	
	export interface RulesCheck {
	    ok: boolean;
	    canonical: string;
	    needsPage: boolean;
	    error?: RuleError;
	    spans: RuleSpan[];
	}
	export interface RulesTest {
	    url: string;
	    pageId: number;
	    stored: boolean;
	    value: string;
	    potential: string;
	    reason: string;
	    atom: string;
	    line: number;
	    column: number;
	    from: number;
	    to: number;
	    element: string;
	    elements: RuleElementTest[];
	    locals: RuleLocalTest[];
	}
	export interface Screenshot {
	    versionId: number;
	    kind: string;
	    width: number;
	    height: number;
	    dataUrl: string;
	}
	
	export interface SearchRequest {
	    query: string;
	    limit: number;
	    offset: number;
	    facets: boolean;
	}
	export interface SearchResults {
	    query: string;
	    total: number;
	    totalApprox: boolean;
	    totalAtLeast: boolean;
	    window: number;
	    tookMs: number;
	    results: Result[];
	    facets: Record<string, Array<FacetCount>>;
	    facetsApprox: boolean;
	    note: string;
	    didYouMean: string;
	    corrected: boolean;
	    library: LibSearchResults;
	}
	export interface Settings {
	    userAgentSuffix: string;
	    from: string;
	    delayMs: number;
	    perHost: number;
	    agents: number;
	    theme: string;
	    maxPerHost: number;
	    maxQueryVariants: number;
	    maxBody: number;
	    render: string;
	}
	export interface Sharing {
	    ownerPasswordSet: boolean;
	    guests: string;
	}
	export interface Status {
	    path: string;
	    fetched: number;
	    queued: number;
	    failed: number;
	    skipped: number;
	    recorded: number;
	    redirected: number;
	    hosts: number;
	    links: number;
	    index: IndexStatus;
	}
	
	
	export interface View {
	    id: number;
	    name: string;
	    query: string;
	    createdAt: string;
	    openedAt: string;
	    lastTotal: number;
	}
	export interface ViewResults {
	    view: View;
	    results: SearchResults;
	    new: number;
	    since: string;
	}
	export interface WorkspaceHolder {
	    pid: number;
	    command: string;
	    since: string;
	}
	export interface WorkspaceInfo {
	    path: string;
	    bytes: number;
	    canChoose: boolean;
	}
	export interface WorkspaceState {
	    path: string;
	    open: boolean;
	    held: boolean;
	    holder?: WorkspaceHolder;
	    waiting: boolean;
	    problem: string;
	    canChoose: boolean;
	}

}

export namespace archive {
	
	export interface ExportReport {
	    format: string;
	    crawlId?: number;
	    records: number;
	    responses: number;
	    revisits: number;
	    bytes: number;
	    skipped: number;
	    requisites?: number;
	}
	export interface Problem {
	    where: string;
	    url?: string;
	    reason: string;
	}
	export interface ImportReport {
	    format: string;
	    crawlId: number;
	    records: number;
	    pages: number;
	    versions: number;
	    duplicates: number;
	    revisits: number;
	    other: number;
	    ignored: number;
	    kept: number;
	    problems: Problem[];
	    problemCount: number;
	    bytes: number;
	    rerunCrawlId?: number;
	}

}

export namespace exchange {
	
	export interface Cursor {
	    seq: number;
	    time: number;
	}
	export interface Source {
	    id: number;
	    kind: string;
	    url: string;
	    name: string;
	    crawlId: number;
	    cursor: Cursor;
	    createdAt: number;
	    pulledAt?: number;
	    summaries: number;
	    error?: string;
	}
	export interface Token {
	    id: number;
	    name: string;
	    secret?: string;
	    createdAt: number;
	    revokedAt?: number;
	    usedAt?: number;
	    uses: number;
	}

}

export namespace graph {
	
	export interface Page {
	    id: number;
	    url: string;
	    title?: string;
	    host: string;
	    state: string;
	    status?: number;
	}
	export interface Hop {
	    page: Page;
	    kind?: string;
	    anchor?: string;
	    backward?: boolean;
	}
	export interface Depth {
	    depth: number;
	    path: Hop[];
	}
	export interface Element {
	    crawlId: number;
	    family: string;
	    page: Page;
	    value: string;
	    followed: boolean;
	    visited: boolean;
	    parent?: number;
	}
	
	export interface Link {
	    page: Page;
	    kind: string;
	    anchor?: string;
	    rel?: string;
	    pos?: number;
	}
	export interface Links {
	    page: Page;
	    out: Link[];
	    in: Link[];
	    outTotal: number;
	    inTotal: number;
	}
	export interface Orphans {
	    total: number;
	    pages: Page[];
	}
	
	export interface PathResult {
	    from: Page;
	    to: Page;
	    undirected: boolean;
	    found: boolean;
	    length: number;
	    path: Hop[];
	    shortest: number;
	    shortestAtLeast?: boolean;
	    paths: number;
	    pathsAtLeast?: boolean;
	    pathsMaxLength: number;
	    reached: number;
	    linksRead: number;
	}
	export interface Tree {
	    elements: Element[];
	    truncated: boolean;
	}
	export interface ViewNode {
	    id: number;
	    url: string;
	    title?: string;
	    host: string;
	    state: string;
	    status?: number;
	    family: string;
	    value: string;
	    followed: boolean;
	    parent: number;
	}
	export interface View {
	    crawlId: number;
	    nodes: ViewNode[];
	    edges: number[][];
	    truncated: boolean;
	    moreEdges: boolean;
	}

}

export namespace report {
	
	export interface Counts {
	    documents: number;
	    references: number;
	    links: number;
	    tested: number;
	    verdicts: Record<string, number>;
	    dead: number;
	    failing: number;
	    deadFrom?: string;
	    checksLeft?: number;
	}
	export interface Ref {
	    link: number;
	    kind: string;
	}
	export interface Doc {
	    link: number;
	    depth: number;
	    refs: Ref[];
	}
	export interface Item {
	    url: string;
	    title?: string;
	    verdict?: string;
	    status?: number;
	    detail: string;
	    finalUrl?: string;
	    permanent?: boolean;
	    dead?: boolean;
	    failures?: number;
	    deadFrom?: string;
	    checksLeft?: number;
	    when?: string;
	    from?: string[];
	    fromMore?: number;
	    new: boolean;
	}
	export interface Link {
	    url: string;
	    tested: boolean;
	    verdict?: string;
	    status?: number;
	    reason?: string;
	    finalUrl?: string;
	    permanent?: boolean;
	    title?: string;
	    lastModified?: string;
	    expires?: string;
	    owner?: string;
	    contentType?: string;
	    dead?: boolean;
	    failures?: number;
	    doc: number;
	}
	export interface News {
	    moved: Item[];
	    broken: Item[];
	    changed: Item[];
	    expiring: Item[];
	    fragments: Item[];
	}
	export interface Option {
	    name: string;
	    value: string;
	}
	
	export interface Task {
	    name: string;
	    type: string;
	    top: string;
	    title?: string;
	    for?: string;
	}

}

