// The failures that mean the user has a part to play: signing in, or binding a client secret.
import { InsufficientScopeError, SdkErrorCode, SdkHttpError, UnauthorizedError } from '@modelcontextprotocol/client';

export class SignInNeeded extends Error {
  constructor(server: string, why: string) {
    super(`sign in needed for "${server}": ${why}`);
  }
}

/** Whether a failure means the user has to sign in (again): no session, an expired one, or too little scope. */
export function isSignInNeeded(err: unknown): boolean {
  if (err instanceof SignInNeeded || err instanceof UnauthorizedError || err instanceof InsufficientScopeError)
    return true;
  return (
    err instanceof SdkHttpError &&
    (err.code === SdkErrorCode.ClientHttpAuthentication || err.code === SdkErrorCode.ClientHttpForbidden)
  );
}

/** The entry's client secret has no authorization server it may go to. */
export class ClientSecretUnbound extends Error {
  constructor(server: string, why: string) {
    super(`server "${server}": ${why}`);
  }
}
