// The chat panel, the polished chat, the daily driver's second pass and the context budget, each a test file of its
// own, run in one
// process on one editor (the demo workspace, its chat on the mock model): `npm test` runs this file
// instead of those three, and each of them still runs alone with its own editors. The context budget comes
// last: it switches a server and a tool off in the tree, which the others' welcome would show, and its 16k
// window is typed into the user settings as a user changes it.
import { shareOneEditor } from './mockChat';
import './chat.test';
import './chatPolish.test';
import './dailyDriver.test';
import './budget.test';

shareOneEditor();
