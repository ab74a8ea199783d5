import { fork, type ChildProcess } from 'node:child_process';

/**
 * Request/answer calls over the IPC channel of a forked process. Benchmarks run the server and the
 * load generator in processes of their own, so each one's CPU and memory are measured apart and
 * both compete for the same cores, as they would on one machine.
 */

/** The calls a child answers: each takes one serialisable argument and resolves a serialisable answer. */
export type RpcApi = Record<string, (params: never) => Promise<unknown>>;

interface RpcRequest {
  rpc: 'call';
  id: number;
  method: string;
  params: unknown;
}

type RpcAnswer =
  { rpc: 'answer'; id: number; ok: true; value: unknown } | { rpc: 'answer'; id: number; ok: false; error: string };

/**
 * In the child: answers the parent's calls with `handlers`. After answering one of `finalCalls` the
 * child exits; it also exits when the parent goes, so an orphan never holds ports or databases.
 */
export function serveRpc<Api extends RpcApi>(handlers: Api, finalCalls: (keyof Api & string)[]): void {
  const send = process.send?.bind(process);
  if (!send) throw new Error('This module runs as a forked child of the benchmark runner.');
  let finished = false;
  const answer = (reply: RpcAnswer, last: boolean) =>
    send(reply, undefined, {}, () => {
      if (!last) return;
      finished = true;
      process.exit(0);
    });
  process.on('message', (message: RpcRequest) => {
    if (message?.rpc !== 'call') return;
    const handler = handlers[message.method];
    const last = finalCalls.includes(message.method);
    const result = handler
      ? handler(message.params as never)
      : Promise.reject(new Error(`Unknown call ${message.method}`));
    result.then(
      (value) => answer({ rpc: 'answer', id: message.id, ok: true, value }, last),
      (error: unknown) =>
        answer(
          {
            rpc: 'answer',
            id: message.id,
            ok: false,
            error: error instanceof Error ? (error.stack ?? error.message) : String(error),
          },
          last,
        ),
    );
  });
  process.on('disconnect', () => process.exit(finished ? 0 : 1));
}

/** In the parent: a forked TypeScript module and typed calls to it, each with a time limit. */
export class RpcChild<Api extends RpcApi> {
  private nextId = 1;
  private readonly pending = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();
  private exited: string | null = null;

  private constructor(
    readonly name: string,
    private readonly child: ChildProcess,
  ) {
    child.on('message', (message: RpcAnswer) => {
      if (message?.rpc !== 'answer') return;
      const waiter = this.pending.get(message.id);
      if (!waiter) return;
      this.pending.delete(message.id);
      if (message.ok) waiter.resolve(message.value);
      else waiter.reject(new Error(`${name}: ${message.error}`));
    });
    child.on('exit', (code, signal) => {
      this.exited = `${name} exited (${signal ?? code})`;
      for (const waiter of this.pending.values()) waiter.reject(new Error(this.exited));
      this.pending.clear();
    });
  }

  /** Forks `modulePath` under tsx with the given extra Node options (e.g. `--cpu-prof`). */
  static start<Api extends RpcApi>(name: string, modulePath: string, nodeOptions: string[] = []): RpcChild<Api> {
    const child = fork(modulePath, [], {
      execArgv: ['--import', 'tsx', ...nodeOptions],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    return new RpcChild<Api>(name, child);
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  call<Method extends keyof Api & string>(
    method: Method,
    params: Parameters<Api[Method]>[0],
    timeoutMs: number,
  ): Promise<Awaited<ReturnType<Api[Method]>>> {
    if (this.exited) return Promise.reject(new Error(this.exited));
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(new Error(`${this.name}: ${method} took longer than ${timeoutMs} ms`));
      }, timeoutMs);
      this.pending.set(id, {
        resolve: (value) => {
          clearTimeout(timer);
          resolve(value as Awaited<ReturnType<Api[Method]>>);
        },
        reject: (error) => {
          clearTimeout(timer);
          reject(error);
        },
      });
      this.child.send({ rpc: 'call', id, method, params } satisfies RpcRequest);
    });
  }

  /** Waits for the child to exit by itself, then kills this child (and only it) if it has not. */
  async stop(graceMs: number): Promise<void> {
    if (this.exited) return;
    const exited = new Promise<void>((resolve) => this.child.once('exit', () => resolve()));
    const timer = new Promise<'late'>((resolve) => setTimeout(() => resolve('late'), graceMs).unref());
    if ((await Promise.race([exited, timer])) === 'late' && !this.exited) {
      this.child.kill('SIGKILL');
      await exited;
    }
  }
}
