import * as vscode from 'vscode';

export const RESULT_SCHEME = 'minagent-result';
/** Results kept for reopening; the oldest go first. */
const KEEP = 20;

/**
 * Try Tool's results, a chat's full tool results and its Markdown export as read-only virtual
 * documents (never dirty Untitled tabs that ask to be saved on close; Save As keeps one), titled with
 * what they are. Owns their text until the document closes or newer ones push it out.
 */
export class ResultDocuments implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly texts = new Map<string, string>();
  private runs = 0;
  private readonly subscriptions: vscode.Disposable[];

  constructor() {
    this.subscriptions = [
      vscode.workspace.registerTextDocumentContentProvider(RESULT_SCHEME, this),
      vscode.workspace.onDidCloseTextDocument(
        (doc) => doc.uri.scheme === RESULT_SCHEME && this.texts.delete(doc.uri.toString()),
      ),
    ];
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.texts.get(uri.toString()) ?? 'This result is no longer kept. Run Try Tool again.';
  }

  /** Opens a result in an editor; the tab reads its title ("tool · server"). */
  async open(title: string, text: string, language: 'markdown' | 'plaintext' = 'markdown'): Promise<void> {
    const safe = title.replace(/[/\\]/g, '∕');
    const uri = vscode.Uri.from({ scheme: RESULT_SCHEME, path: `/${safe}`, query: `run=${++this.runs}` });
    this.texts.set(uri.toString(), text);
    while (this.texts.size > KEEP) this.texts.delete(this.texts.keys().next().value!);
    const doc = await vscode.languages.setTextDocumentLanguage(await vscode.workspace.openTextDocument(uri), language);
    await vscode.window.showTextDocument(doc, { preview: false });
  }

  dispose(): void {
    for (const s of this.subscriptions) s.dispose();
    this.texts.clear();
  }
}
