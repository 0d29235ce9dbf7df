// What a user does in the chat's page, shared by the e2e files that drive it.
import type { Frame } from 'playwright-core';

/** Types a message and sends it with Enter, once the previous turn has ended. */
export async function ask(chat: Frame, text: string): Promise<void> {
  await chat.locator('#send', { hasText: 'Send' }).waitFor(); // the previous turn has ended
  const input = chat.locator('#input');
  await input.fill(text);
  await input.press('Enter');
}

/** Where the last element matching `selector` sits against the transcript's visible area. */
export async function placement(chat: Frame, selector: string): Promise<'visible' | 'below' | 'above'> {
  return chat.evaluate(`(() => {
    const els = document.querySelectorAll(${JSON.stringify(selector)});
    const r = els[els.length - 1].getBoundingClientRect();
    const t = document.getElementById('transcript').getBoundingClientRect();
    return r.top >= t.bottom - 4 ? 'below' : r.bottom <= t.top + 4 ? 'above' : 'visible';
  })()`);
}
