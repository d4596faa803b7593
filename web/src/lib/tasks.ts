/**
 * Ends the current task: what follows runs in a new one, so the browser may handle a tap and paint in between. A
 * phone's main thread is blocked as long as its longest task (Lighthouse counts the part of every task past 50 ms as
 * blocking time), so long work is better cut into steps than run in one go.
 */
export const nextTask = (): Promise<void> => new Promise<void>((resolve) => setTimeout(resolve, 0));
