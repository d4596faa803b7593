import { IsString } from 'class-validator';
import { ConfigError, loadConfig, ServiceConfig } from './service-config';

class DemoConfig extends ServiceConfig {
  @IsString()
  DEMO_VALUE = 'default';
}

const base = {
  PORT: '3100',
  MONGO_URI: 'mongodb://127.0.0.1:27017/demo',
  JWT_SECRET: 'a-long-enough-dev-secret',
};

describe('loadConfig', () => {
  it('reads the environment, converts numbers and keeps defaults', () => {
    const config = loadConfig(DemoConfig, base);
    expect(config.PORT).toBe(3100);
    expect(config.DEMO_VALUE).toBe('default');
    expect(config.REDIS_URL).toBe('redis://127.0.0.1:6379');
  });

  it('lists every problem at once', () => {
    try {
      loadConfig(DemoConfig, { PORT: 'abc', MONGO_URI: 'http://nope' });
      throw new Error('expected a ConfigError');
    } catch (e) {
      expect(e).toBeInstanceOf(ConfigError);
      const problems = (e as ConfigError).problems.join('\n');
      expect(problems).toMatch(/PORT/);
      expect(problems).toMatch(/MONGO_URI/);
      expect(problems).toMatch(/JWT_SECRET/);
    }
  });

  it('refuses a weak secret in production only', () => {
    expect(() => loadConfig(DemoConfig, { ...base, NODE_ENV: 'production' })).toThrow(/too weak/);
    expect(() =>
      loadConfig(DemoConfig, { ...base, NODE_ENV: 'production', JWT_SECRET: 'x'.repeat(20) + 'Yq3#kP9!vL2@mN8$' }),
    ).not.toThrow();
  });
});
