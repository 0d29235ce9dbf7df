// Resources, MCP Apps, elicitation and tool search, each a test file of its own, run in one process on
// one editor (the e2e workspace, its chat on the mock model): `npm test` runs this file instead of those
// four, and each of them still runs alone with its own editor. Resources comes first (it checks how the
// window lays out a server's resources as they arrive), tool search last (it switches the theme).
import { shareOneEditor } from './mockChat';
import './resources.test';
import './apps.test';
import './elicitation.test';
import './toolSearch.test';

shareOneEditor();
