/**
 * How `npm start`, `npm test` and `npm run build` run their builds side by side (scripts/lib/build-plan.cjs), with
 * fake builds that finish when the test says: what starts when, the limit on heavy builds, a build in the
 * background, and what a failure stops.
 */
import { checkGraph, runTasks } from '../lib/build-plan.cjs';

type Task = { id: string; needs?: string[]; heavy?: boolean; background?: boolean; run: () => Promise<unknown> };

/** Fake builds: each started one is recorded, and finishes (or fails) when finish(id) / fail(id) is called. */
function fakeBuilds() {
  const started: string[] = [];
  const pending = new Map<string, { resolve: (v: string) => void; reject: (e: Error) => void }>();
  const task = (id: string, more: Partial<Task> = {}): Task => ({
    id,
    ...more,
    run: () =>
      new Promise<string>((resolve, reject) => {
        started.push(id);
        pending.set(id, { resolve, reject });
      }),
  });
  const settle = () => new Promise((resolve) => setImmediate(resolve));
  const finish = async (id: string) => {
    const p = pending.get(id);
    if (!p) throw new Error(`${id} is not running`);
    pending.delete(id);
    p.resolve(`${id} built`);
    await settle();
  };
  const fail = async (id: string, err = new Error(`${id} failed`)) => {
    const p = pending.get(id);
    if (!p) throw new Error(`${id} is not running`);
    pending.delete(id);
    p.reject(err);
    await settle();
  };
  const running = () => [...pending.keys()].sort();
  return { started, task, finish, fail, running, settle };
}

/** The shape of scripts/lib/build.mjs's graph. */
const shopGraph = (b: ReturnType<typeof fakeBuilds>, { mailpitInBackground = false } = {}) => [
  b.task('ferretdb', { heavy: true }),
  b.task('install', { heavy: true }),
  b.task('mailpit', { background: mailpitInBackground }),
  b.task('typescript', { needs: ['install'], heavy: true }),
  b.task('openapi', { needs: ['typescript'] }),
  b.task('web', { needs: ['install'], heavy: true }),
];

describe('runTasks', () => {
  it('starts every build that needs nothing at once, and each other one as soon as what it needs is built', async () => {
    const b = fakeBuilds();
    const { done } = runTasks(shopGraph(b));
    await b.settle();
    expect(b.running()).toEqual(['ferretdb', 'install', 'mailpit']);

    await b.finish('install');
    expect(b.running()).toEqual(['ferretdb', 'mailpit', 'typescript', 'web']);
    await b.finish('typescript');
    expect(b.running()).toEqual(['ferretdb', 'mailpit', 'openapi', 'web']);

    let finished = false;
    void done.then(() => (finished = true));
    for (const id of ['openapi', 'web', 'ferretdb']) await b.finish(id);
    expect(finished).toBe(false); // Mailpit is waited for unless it is in the background
    await b.finish('mailpit');
    expect(finished).toBe(true);
  });

  it('runs at most `limit` heavy builds at once, the others first come first served; light ones are not counted', async () => {
    const b = fakeBuilds();
    const { done } = runTasks(shopGraph(b), { limit: 2 });
    await b.settle();
    expect(b.running()).toEqual(['ferretdb', 'install', 'mailpit']);

    await b.finish('install'); // typescript takes the slot, web waits for the next
    expect(b.running()).toEqual(['ferretdb', 'mailpit', 'typescript']);
    await b.finish('ferretdb');
    expect(b.running()).toEqual(['mailpit', 'typescript', 'web']);
    await b.finish('typescript');
    expect(b.running()).toEqual(['mailpit', 'openapi', 'web']);
    for (const id of ['openapi', 'web', 'mailpit']) await b.finish(id);
    await expect(done).resolves.toBeUndefined();
    expect(b.started.filter((id) => id !== 'mailpit')).toEqual(['ferretdb', 'install', 'typescript', 'web', 'openapi']);
  });

  it('does not wait for a build in the background, whose failure stops nothing', async () => {
    const b = fakeBuilds();
    const onFailure = jest.fn();
    const { done, results } = runTasks(shopGraph(b, { mailpitInBackground: true }), { onFailure });
    await b.settle();
    await b.finish('install');
    for (const id of ['typescript', 'openapi', 'web', 'ferretdb']) await b.finish(id);
    await expect(done).resolves.toBeUndefined();
    expect(b.running()).toEqual(['mailpit']);

    await b.fail('mailpit');
    await expect(results.get('mailpit')).rejects.toThrow('mailpit failed');
    expect(onFailure).not.toHaveBeenCalled();
  });

  it('on the first failure calls onFailure once, starts nothing more and rejects with it once the running builds settled', async () => {
    const b = fakeBuilds();
    const onFailure = jest.fn();
    const { done, results } = runTasks(shopGraph(b), { limit: 2, onFailure });
    let settled = false;
    done.catch(() => undefined).finally(() => (settled = true));
    await b.settle();
    await b.finish('install'); // typescript runs, web waits for a slot
    await b.fail('ferretdb');
    expect(onFailure).toHaveBeenCalledTimes(1);
    expect(onFailure.mock.calls[0][0].message).toBe('ferretdb failed');
    // web got ferretdb's slot, but is not started; typescript and mailpit still run (onFailure stops them)
    expect(b.running()).toEqual(['mailpit', 'typescript']);
    await expect(results.get('web')).rejects.toMatchObject({ notStarted: true });
    expect(settled).toBe(false);

    await b.fail('typescript', new Error('stopped'));
    await b.fail('mailpit', new Error('stopped'));
    expect(onFailure).toHaveBeenCalledTimes(1);
    await expect(done).rejects.toThrow('ferretdb failed');
    // what needed a failed build fails with it, never starting
    await expect(results.get('openapi')).rejects.toThrow('stopped');
    expect(b.started).not.toContain('openapi');
    expect(b.started).not.toContain('web');
  });

  it('refuses a limit below 1', () => {
    const b = fakeBuilds();
    expect(() => runTasks([b.task('a')], { limit: 0 })).toThrow('limit must be at least 1');
  });
});

describe('checkGraph', () => {
  const t = (id: string, needs: string[] = [], background = false) => ({ id, needs, background });

  it('orders each task after what it needs', () => {
    expect(checkGraph([t('openapi', ['typescript']), t('typescript', ['install']), t('install')])).toEqual([
      'install',
      'typescript',
      'openapi',
    ]);
  });

  it('refuses an unknown need, a cycle, a task listed twice, and a waited-for task that needs a background one', () => {
    expect(() => checkGraph([t('web', ['install'])])).toThrow('task "web" needs "install", which is not a task');
    expect(() => checkGraph([t('a', ['b']), t('b', ['c']), t('c', ['a'])])).toThrow(
      'tasks need each other: a -> b -> c -> a',
    );
    expect(() => checkGraph([t('a'), t('a')])).toThrow('task "a" is listed twice');
    expect(() => checkGraph([t('mailpit', [], true), t('start', ['mailpit'])])).toThrow(
      'task "start" needs "mailpit", which runs in the background',
    );
    expect(checkGraph([t('mailpit', [], true), t('start mailpit', ['mailpit'], true)])).toEqual([
      'mailpit',
      'start mailpit',
    ]);
  });
});
