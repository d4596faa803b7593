import { writeTogether } from '../src/write-together';

const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

describe('writeTogether', () => {
  it('runs a turn’s writes together after it, in order, and one that throws costs the others nothing', async () => {
    const warn = jest.spyOn(process, 'emitWarning').mockImplementation(() => undefined);
    try {
      const done: string[] = [];
      writeTogether(() => done.push('a'));
      writeTogether(() => {
        throw new Error('socket gone');
      });
      writeTogether(() => done.push('c'));
      expect(done).toEqual([]);
      await nextTurn();
      expect(done).toEqual(['a', 'c']);
      expect(warn.mock.calls).toEqual([['a socket write failed: socket gone']]);
    } finally {
      warn.mockRestore();
    }
  });
});
