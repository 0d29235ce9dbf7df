import type { ServerAuth } from '../../auth/provider';
import type { FetchLike } from '@modelcontextprotocol/client';

/** How many times a step is run again after a sign-in put its authorization right. */
const MAX_RETRIES = 2;

/**
 * Runs `step`; when it stopped on an authorization problem that the server's OAuth client puts
 * right (a sign-in the user completes), runs it again. Without an OAuth client, or once the session
 * is closing, the failure stands.
 */
export async function afterSignIn<T>(
  auth: ServerAuth | undefined,
  closing: () => boolean,
  fetch: () => FetchLike,
  step: () => Promise<T>,
): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await step();
    } catch (err) {
      if (!auth || closing() || attempt >= MAX_RETRIES || !(await auth.recover(err, fetch()))) throw err;
    }
  }
}
