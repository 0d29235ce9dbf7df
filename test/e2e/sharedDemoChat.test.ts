// The chat panel and the polished chat, each a test file of its own, run in one process on one editor
// (the demo workspace, its chat on the mock model): `npm test` runs this file instead of those two, and
// each of them still runs alone with its own editors. The chat panel comes first; the polished chat's
// history test, which adds a model to the user's settings, last.
import { shareOneEditor } from './mockChat';
import './chat.test';
import './chatPolish.test';

shareOneEditor();
