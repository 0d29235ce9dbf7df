/**
 * The words users ask with and the words tools are described with: a query's word also searches
 * for these. General vocabulary of tools (actions, objects, abbreviations, idioms such as "who
 * wrote" for blame), never a tool's or a server's name; grown from the benchmark's tuning queries
 * (bench/toolSearch), judged on the queries held out from it.
 */
const GROUPS: Array<[string[], string[]]> = [
  // Abbreviations.
  [
    ['pr', 'prs'],
    ['pull', 'request'],
  ],
  [
    ['mr', 'mrs'],
    ['merge', 'request'],
  ],
  [['repo', 'repos'], ['repository']],
  [['dir', 'folder', 'folders'], ['directory']],
  [['env'], ['environment']],
  // Actions.
  [['open', 'make', 'new', 'start', 'cut', 'file', 'add', 'setup', 'set'], ['create']],
  [['remove', 'drop', 'wipe', 'forget', 'erase', 'discard', 'trash'], ['delete']],
  [
    ['show', 'display', 'print', 'view', 'see', 'fetch', 'pull', 'look', 'check', 'read'],
    ['get', 'read', 'list', 'retrieve'],
  ],
  [
    ['find', 'lookup', 'locate', 'query', 'seek'],
    ['search', 'find'],
  ],
  [['who', 'which', 'all', 'every', 'any'], ['list']],
  [
    ['close', 'tick', 'complete', 'finish', 'done', 'resolve', 'check'],
    ['close', 'complete', 'update'],
  ],
  [
    ['reopen', 'restore', 'undo', 'back', 'revive'],
    ['reopen', 'restore', 'revert'],
  ],
  [
    ['rename', 'change', 'edit', 'modify', 'tweak', 'fix', 'set', 'mark'],
    ['update', 'edit', 'patch'],
  ],
  [['squash', 'combine', 'land'], ['merge']],
  [
    ['remark', 'reply', 'feedback', 'say'],
    ['comment', 'note'],
  ],
  [
    ['save', 'store', 'put', 'upload', 'write'],
    ['write', 'create', 'upload'],
  ],
  [
    ['download', 'grab', 'copy'],
    ['download', 'get', 'copy'],
  ],
  [['move', 'relocate', 'rename'], ['move']],
  [
    ['compare', 'difference', 'differences', 'changed'],
    ['diff', 'compare'],
  ],
  [
    ['remember', 'know', 'recall', 'memorize', 'note'],
    ['memory', 'observation', 'entity', 'graph'],
  ],
  [
    ['person', 'people', 'someone', 'anyone', 'colleague'],
    ['entity', 'user', 'member'],
  ],
  [['access', 'team', 'collaborator', 'collaborators'], ['member']],
  [
    ['account', 'logged', 'login', 'myself', 'identity'],
    ['user', 'whoami', 'self', 'current'],
  ],
  [
    ['today', 'now', 'clock', 'date', 'moment'],
    ['current', 'time', 'date'],
  ],
  [
    ['until', 'ago', 'since', 'long', 'left'],
    ['relative', 'time', 'days'],
  ],
  [['press', 'tap', 'hit'], ['click']],
  [
    ['type', 'enter', 'fill'],
    ['type', 'fill', 'input'],
  ],
  [
    ['capture', 'snapshot', 'picture', 'image', 'png', 'jpg'],
    ['screenshot', 'image', 'media'],
  ],
  [
    ['website', 'site', 'url', 'link', 'webpage', 'tab'],
    ['page', 'navigate', 'browser'],
  ],
  [
    ['layout', 'structure', 'nested', 'hierarchy'],
    ['tree', 'directory'],
  ],
  [
    ['space', 'big', 'large', 'largest', 'biggest', 'heavy'],
    ['size', 'sizes'],
  ],
  [
    ['modified', 'dirty', 'staged', 'uncommitted', 'working'],
    ['status', 'diff'],
  ],
  [
    ['history', 'last', 'recent', 'latest'],
    ['log', 'list', 'commit'],
  ],
  [
    ['release', 'version'],
    ['tag', 'release'],
  ],
  [
    ['table', 'database', 'column', 'columns', 'row', 'rows'],
    ['database', 'data', 'source', 'property'],
  ],
  [
    ['todo', 'todos', 'reminder', 'remind', 'chore', 'chores'],
    ['task', 'create'],
  ],
  [['bug', 'ticket', 'problem', 'report'], ['issue']],
  [
    ['reaction', 'reactions', 'thumbs', 'emoji', 'upvote', 'like'],
    ['emoji', 'reaction', 'award'],
  ],
  [['pending', 'unpublished', 'unposted', 'draft'], ['draft']],
  [
    ['request', 'requests', 'calls', 'traffic', 'api'],
    ['network', 'request'],
  ],
  [['repeat', 'mirror'], ['echo']],
  [
    ['wrote', 'authored', 'author', 'blamed'],
    ['blame', 'author'],
  ],
  [['untracked', 'junk', 'clutter', 'cleanup', 'tidy'], ['clean']],
  [
    ['stage', 'staging', 'unstaged'],
    ['add', 'stage'],
  ],
  [
    ['pick', 'backport', 'port', 'grab'],
    ['cherry', 'pick'],
  ],
  [
    ['leave', 'post', 'drop'],
    ['create', 'add'],
  ],
  [
    ['taken', 'available', 'exists', 'exist', 'free', 'occupied'],
    ['verify', 'exists', 'check'],
  ],
  [
    ['dark', 'light', 'theme', 'mode'],
    ['emulate', 'media', 'color', 'scheme'],
  ],
  [
    ['connect', 'relate', 'relationship', 'link', 'manages', 'works'],
    ['relation', 'relations', 'link'],
  ],
  [
    ['assigned', 'mine', 'my'],
    ['assigned', 'assignee', 'my'],
  ],
  [
    ['modified', 'created', 'metadata', 'big', 'permissions'],
    ['info', 'metadata', 'stat'],
  ],
  [
    ['sync', 'rebase', 'date', 'behind'],
    ['update', 'branch'],
  ],
  [
    ['preferences', 'facts', 'about', 'mentions'],
    ['search', 'observations'],
  ],
  [
    ['everything', 'whole', 'entire'],
    ['all', 'graph', 'read'],
  ],
];

const EXPANSIONS = new Map<string, Set<string>>();
for (const [words, adds] of GROUPS) {
  for (const w of words) {
    const set = EXPANSIONS.get(w) ?? new Set<string>();
    for (const a of adds) if (a !== w) set.add(a);
    EXPANSIONS.set(w, set);
  }
}

/** The tool words a query's (lower-case) word stands for, if any. */
export function expansions(word: string): ReadonlySet<string> | undefined {
  return EXPANSIONS.get(word);
}
