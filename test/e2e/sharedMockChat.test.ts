// Resources, MCP Apps, elicitation, tool search and the polished Tools tree, each a test file of its own,
// run in one process on one editor (the e2e workspace, its chat on the mock model): `npm test` runs this
// file instead of those five, and each of them still runs alone with its own editor. Resources comes first
// (it checks how the window lays out a server's resources as they arrive), tool search next to last (it
// switches the theme), the tree last (it stops, restarts and adds servers, and leaves failure notices).
// The same for the tests about what reaches whom: test/e2e/sharedSecurityChat.test.ts.
import { shareOneEditor } from './mockChat';
import './resources.test';
import './apps.test';
import './elicitation.test';
import './toolSearch.test';
import './treePolish.test';

shareOneEditor();
