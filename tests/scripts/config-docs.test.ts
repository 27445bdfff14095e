import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CONFIG_DOC, configurationDoc } from '../../scripts/config-docs';
import { ENV_SCHEMA, PRODUCTION_REQUIRED } from '../../server/config';

describe('docs/configuration.md (scripts/config-docs.ts)', () => {
  it('is what the generator writes from the configuration schema', () => {
    const onDisk = existsSync(CONFIG_DOC) ? readFileSync(CONFIG_DOC, 'utf8') : '(missing)';
    expect(onDisk, 'docs/configuration.md is not current: run `npm run docs:config` and commit the result').toBe(configurationDoc());
  });

  it('documents every variable of the schema, each with a description of its own', () => {
    const doc = configurationDoc();
    for (const [name, declaration] of Object.entries(ENV_SCHEMA.properties)) {
      expect(declaration.description.trim().length, `${name} has no description in server/config/variables.ts`).toBeGreaterThan(10);
      expect(doc, name).toContain(`| \`${name}\` |`);
    }
    const descriptions = Object.values(ENV_SCHEMA.properties).map((d) => d.description);
    expect(new Set(descriptions).size).toBe(descriptions.length);
  });

  it('marks exactly the variables production requires', () => {
    const required = configurationDoc()
      .split('\n')
      .filter((line) => /^\| `[A-Z0-9_]+` \|.*\| required \|/.test(line))
      .map((line) => /^\| `([A-Z0-9_]+)`/.exec(line)?.[1]);
    expect(required).toEqual([...PRODUCTION_REQUIRED]);
  });
});
