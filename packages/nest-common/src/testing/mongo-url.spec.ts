import { withDatabase } from './mongo-url';

describe('withDatabase', () => {
  it.each([
    ['mongodb://127.0.0.1:27018', 'mongodb://127.0.0.1:27018/test_x'],
    ['mongodb://127.0.0.1:27018/', 'mongodb://127.0.0.1:27018/test_x'],
    ['mongodb://127.0.0.1:27018/other', 'mongodb://127.0.0.1:27018/test_x'],
    ['mongodb://db:27017/?replicaSet=rs0', 'mongodb://db:27017/test_x?replicaSet=rs0'],
    [
      'mongodb://u:p%3F@a:1,b:2/admin?replicaSet=rs0&w=majority',
      'mongodb://u:p%3F@a:1,b:2/test_x?replicaSet=rs0&w=majority',
    ],
    [
      'mongodb+srv://u:p@cluster0.example.net/?retryWrites=true',
      'mongodb+srv://u:p@cluster0.example.net/test_x?retryWrites=true',
    ],
  ])('puts the database into %s, keeping its hosts and options', (url, expected) => {
    expect(withDatabase(url, 'test_x')).toBe(expected);
  });
});
