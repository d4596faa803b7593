import { UnsubscribeTokens } from './unsubscribe-token';

describe('unsubscribe tokens', () => {
  const tokens = new UnsubscribeTokens('a-secret-of-the-shop');

  it('gives back the address it was made for', () => {
    expect(tokens.verify(tokens.sign('fan@example.com'))).toBe('fan@example.com');
  });

  it('refuses a token changed in any way, made with another secret, or not a token at all', () => {
    const token = tokens.sign('fan@example.com');
    const [body, mac] = token.split('.');
    const other = Buffer.from('someone@example.com').toString('base64url');
    for (const bad of [
      `${other}.${mac}`,
      `${body}.${mac.slice(0, -1)}A`,
      `${body}.${mac}.x`,
      body,
      '',
      '.',
      new UnsubscribeTokens('another-secret').sign('fan@example.com'),
    ])
      expect(tokens.verify(bad)).toBeNull();
  });
});
