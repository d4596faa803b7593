// Runs the builds of `npm start` / `npm test` / `npm run build` side by side (scripts/lib/build.mjs names them): each
// task starts as soon as the tasks it needs have finished, at most `limit` of the heavy ones at a time. A task may
// run in the background: nothing waits for it, and its failure stops nothing else.
// CommonJS, not .mjs like its neighbours, because jest (scripts/checks/build-plan.spec.ts) cannot load an .mjs file.
'use strict';

/** The order to start tasks in when nothing else decides: each after what it needs. Throws on an unknown need or a cycle. */
function checkGraph(tasks) {
  const byId = new Map();
  for (const t of tasks) {
    if (byId.has(t.id)) throw new Error(`task "${t.id}" is listed twice`);
    byId.set(t.id, t);
  }
  const order = [];
  const state = new Map(); // id -> 'visiting' | 'done'
  const visit = (t, path) => {
    if (state.get(t.id) === 'done') return;
    if (state.get(t.id) === 'visiting') throw new Error(`tasks need each other: ${[...path, t.id].join(' -> ')}`);
    state.set(t.id, 'visiting');
    for (const need of t.needs || []) {
      const dep = byId.get(need);
      if (!dep) throw new Error(`task "${t.id}" needs "${need}", which is not a task`);
      if (dep.background && !t.background)
        throw new Error(
          `task "${t.id}" needs "${need}", which runs in the background: it must run in the background too`,
        );
      visit(dep, [...path, t.id]);
    }
    state.set(t.id, 'done');
    order.push(t.id);
  };
  for (const t of tasks) visit(t, []);
  return order;
}

/**
 * tasks: [{ id, needs: [id], heavy: boolean, background: boolean, run: () => Promise }]
 * options: limit (heavy tasks at once, default no limit); onFailure(err): called once, at the first failure of a
 * task that is not in the background (to stop the others: they then fail, or are never started).
 * Returns { done, results }: `done` resolves when every task not in the background has finished, or rejects with the
 * first failure once every started one has settled; `results` maps each id to its task's promise (rejected too when
 * a task it needs failed or it was not started because something failed).
 */
function runTasks(tasks, { limit = Infinity, onFailure = () => undefined } = {}) {
  checkGraph(tasks);
  if (!(limit >= 1)) throw new Error(`limit must be at least 1 (got ${limit})`);
  const byId = new Map(tasks.map((t) => [t.id, t]));
  const results = new Map();
  const waiting = []; // heavy tasks waiting for a slot, first come first served
  let heavyRunning = 0;
  let failure = null;

  const slot = () =>
    heavyRunning < limit ? (heavyRunning++, Promise.resolve()) : new Promise((resolve) => waiting.push(resolve));
  const release = () => {
    const next = waiting.shift();
    if (next) next();
    else heavyRunning--;
  };

  const start = (t) => {
    if (results.has(t.id)) return results.get(t.id);
    const promise = (async () => {
      await Promise.all((t.needs || []).map((id) => start(byId.get(id))));
      if (t.heavy) await slot();
      try {
        if (failure && !t.background) throw notStarted(t, failure);
        return await t.run();
      } catch (err) {
        // before the slot is given to the next one, which must then not start
        if (!t.background && !failure) {
          failure = err;
          onFailure(err);
        }
        throw err;
      } finally {
        if (t.heavy) release();
      }
    })();
    results.set(t.id, promise);
    promise.catch(() => undefined); // handled by whoever awaits it (`done`, the caller); never an unhandled rejection
    return promise;
  };
  for (const t of tasks) start(t);

  const foreground = tasks.filter((t) => !t.background).map((t) => results.get(t.id));
  const done = Promise.allSettled(foreground).then(() => {
    if (failure) throw failure;
  });
  return { done, results };
}

function notStarted(task, cause) {
  const err = new Error(`${task.id} was not started: another build failed`);
  err.notStarted = true;
  err.cause = cause;
  return err;
}

module.exports = { checkGraph, runTasks };
