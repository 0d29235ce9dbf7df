import { execFile } from 'node:child_process';
import { helperEnvironment } from './environment';

/** Why a machine cannot sandbox a server, and what its user can do about it. */
export interface NoSandbox {
  reason: string;
  remedy: string;
}

/** The reason in a few words, for a row or a notice (its first clause: "user namespaces are not allowed here"). */
export function noSandboxHeadline(why: NoSandbox): string {
  return why.reason.split(/[,(]/)[0]!.trim();
}

/**
 * Whether bubblewrap can make the namespaces a sandbox runs in (user, PID and network). Its dependencies can all be
 * there and this still fail: a container forbids them (Docker's default seccomp profile), or the kernel does
 * (`user.max_user_namespaces` 0, Debian's `kernel.unprivileged_userns_clone` 0, Ubuntu's AppArmor restriction).
 * Asked of the very bubblewrap the sandbox runs, as the sandbox runs it; undefined when it can.
 */
export function namespaceRefusal(bwrap: string): Promise<NoSandbox | undefined> {
  return new Promise((resolve) => {
    execFile(
      bwrap,
      ['--unshare-user', '--unshare-pid', '--unshare-net', '--ro-bind', '/', '/', 'true'],
      { env: helperEnvironment(), timeout: 5_000 },
      (err, _stdout, stderr) => {
        if (!err) return resolve(undefined);
        const said =
          String(stderr)
            .split('\n')
            .map((line) => line.trim())
            .find(Boolean)
            ?.slice(0, 200) ?? err.message;
        resolve({
          reason: `user namespaces are not allowed here, so bubblewrap cannot make a sandbox (${said})`,
          remedy:
            'allow unprivileged user namespaces on this machine (a container: run it with them allowed, e.g. Docker with --security-opt seccomp=unconfined; Ubuntu 24.04: sysctl kernel.apparmor_restrict_unprivileged_userns=0; elsewhere: sysctl user.max_user_namespaces=15000), or run this server without its sandbox',
        });
      },
    );
  });
}
