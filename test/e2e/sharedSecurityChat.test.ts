// Read-only exfiltration, secrets, server prompts and the trace, servers from a registry, OAuth sign-in and
// servers in a sandbox, each a test file of its own, run in one process on one editor (the e2e workspace,
// its chat on the mock model), as test/e2e/sharedMockChat.test.ts does for the chat's features: `npm test`
// runs this file instead of those six, and each of them still runs alone with its own editor. Each test's
// user settings (its own servers, the trace, a theme, the sandbox's rule) are typed into the shared editor's
// settings.
import { shareOneEditor } from './mockChat';
import './exfiltration.test';
import './secrets.test';
import './prompts.test';
import './registry.test';
import './oauth.test';
import './sandbox.test';

shareOneEditor();
