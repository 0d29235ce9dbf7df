import { startCodeServer } from './test/e2e/codeServer';
import { Workbench } from './test/e2e/workbench';
const cs = await startCodeServer({ workspace: 'e2e' });
const wb = await Workbench.open(cs.url);
await wb.openMinAgent();
await wb.page.waitForTimeout(5000);
const info = await wb.page.locator('.sidebar .monaco-list-row').evaluateAll((rows) => rows.map((r) => (r as HTMLElement).className + ' | ' + (r as HTMLElement).innerText.replace(/\s+/g, ' ') + ' | ' + r.closest('.pane-body')?.className));
console.log(info.slice(0, 5));
await wb.close(); await cs.stop();
