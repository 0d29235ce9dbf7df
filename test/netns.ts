// A second host for tests of what crosses a network: a network namespace joined to this one by a
// veth pair. Inside it, 203.0.113.2 is a public address (TEST-NET-3) and 10.99.0.2 a private one;
// both are routed from here. Needs root and iproute2 (CI runs as root); without them the test fails
// with the reason, never skips.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';

export interface TestHost {
  publicAddress: string;
  privateAddress: string;
  /** The command prefix that runs a program inside the namespace. */
  wrap: string[];
  /** Starts a TCP listener inside the namespace that records every connection (and answers HTTP with 200). */
  victim(address: string): Promise<{ port: number; connections: () => number; stop(): void }>;
  dispose(): void;
}

const ip = (...args: string[]) => execFileSync('ip', args, { stdio: ['ignore', 'ignore', 'pipe'] });

export function createTestHost(): TestHost {
  const id = String(process.pid % 100000);
  const ns = `minagent${id}`;
  const outer = `mah${id}`;
  const inner = `man${id}`;
  try {
    ip('netns', 'add', ns);
    ip('link', 'add', outer, 'type', 'veth', 'peer', 'name', inner);
    ip('link', 'set', inner, 'netns', ns);
    ip('addr', 'add', '203.0.113.1/24', 'dev', outer);
    ip('link', 'set', outer, 'up');
    ip('route', 'add', '10.99.0.2/32', 'via', '203.0.113.2');
    const inside = (...args: string[]) => ip('netns', 'exec', ns, 'ip', ...args);
    inside('addr', 'add', '203.0.113.2/24', 'dev', inner);
    inside('addr', 'add', '10.99.0.2/32', 'dev', 'lo');
    inside('link', 'set', inner, 'up');
    inside('link', 'set', 'lo', 'up');
  } catch (err) {
    cleanup(ns, outer);
    throw new Error(
      `cannot create a network namespace for the test host (needs root and iproute2): ${(err as { stderr?: Buffer }).stderr?.toString().trim() || (err as Error).message}`,
    );
  }
  const children: ChildProcess[] = [];
  return {
    publicAddress: '203.0.113.2',
    privateAddress: '10.99.0.2',
    wrap: ['ip', 'netns', 'exec', ns],
    async victim(address) {
      const script = `const s=require('net').createServer(c=>{console.log('conn');c.on('data',()=>c.end('HTTP/1.1 200 OK\\r\\ncontent-type: application/json\\r\\nconnection: close\\r\\n\\r\\n{"victim":"private body"}'));c.on('error',()=>{})});s.listen(0,${JSON.stringify(address)},()=>console.log('port '+s.address().port));process.stdin.on('end',()=>process.exit(0));process.stdin.resume();`;
      const child = spawn('ip', ['netns', 'exec', ns, process.execPath, '-e', script], {
        stdio: ['pipe', 'pipe', 'inherit'],
      });
      children.push(child);
      let connections = 0;
      const port = await new Promise<number>((resolve, reject) => {
        child.once('exit', (code) => reject(new Error(`victim exited with ${code}`)));
        createInterface({ input: child.stdout! }).on('line', (line) => {
          if (line.startsWith('port ')) resolve(Number(line.slice(5)));
          else if (line === 'conn') connections++;
        });
      });
      return { port, connections: () => connections, stop: () => child.stdin?.end() };
    },
    dispose() {
      for (const c of children) c.stdin?.end();
      cleanup(ns, outer);
    },
  };
}

function cleanup(ns: string, outer: string): void {
  for (const args of [
    ['route', 'del', '10.99.0.2/32'],
    ['link', 'del', outer],
    ['netns', 'del', ns],
  ]) {
    try {
      ip(...args);
    } catch {
      // already gone
    }
  }
}
