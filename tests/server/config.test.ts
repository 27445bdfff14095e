import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../server/config';

describe('loadConfig', () => {
  it('listens on this machine only in development, on every address in production, as HOST says when set', () => {
    expect(loadConfig({}).host).toBe('localhost');
    expect(loadConfig({ NODE_ENV: 'production' }).host).toBe('0.0.0.0');
    expect(loadConfig({ HOST: '0.0.0.0' }).host).toBe('0.0.0.0');
    expect(loadConfig({ NODE_ENV: 'production', HOST: '10.1.2.3' }).host).toBe('10.1.2.3');
  });

  it('knows production by NODE_ENV', () => {
    expect(loadConfig({}).production).toBe(false);
    expect(loadConfig({ NODE_ENV: 'test' }).production).toBe(false);
    expect(loadConfig({ NODE_ENV: 'production' }).production).toBe(true);
  });
});
