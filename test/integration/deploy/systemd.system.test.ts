import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { KNOWN_ENV, SYSTEMD_UNIT } from '../../unit/deploy/support/paths.js';
import { runTool } from './tools.js';
import { parseConfig } from '../../helpers/config.js';

const work = mkdtempSync(join(tmpdir(), 'ragwatch-systemd-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));
const analyze = (...args: string[]) => runTool('systemd-analyze', args, { cwd: work, debianPackage: 'systemd' });

/** `Key=value` lines of one section (repeated keys kept in order). */
function directives(text: string, section: string): [string, string][] {
  const out: [string, string][] = [];
  let current = '';
  for (const line of text.split('\n')) {
    const header = /^\[(\w+)\]\s*$/.exec(line);
    if (header) current = header[1] as string;
    else if (current === section && /^[A-Za-z]+=/.test(line)) {
      const i = line.indexOf('=');
      out.push([line.slice(0, i), line.slice(i + 1)]);
    }
  }
  return out;
}

describe('deploy/systemd/ragwatch.service', () => {
  const unit = readFileSync(SYSTEMD_UNIT, 'utf8');
  const service = directives(unit, 'Service');
  const get = (key: string) => service.filter(([k]) => k === key).map(([, v]) => v);

  it('passes systemd-analyze verify without a warning', () => {
    const copy = join(work, 'ragwatch.service');
    copyFileSync(SYSTEMD_UNIT, copy);
    const res = analyze('verify', copy);
    expect(res.stderr.trim()).toBe('');
    expect(res.status).toBe(0);
  });

  it('verify catches a broken unit (the check is not a no-op)', () => {
    const broken = join(work, 'broken.service');
    writeFileSync(broken, unit.replace('ProtectHome=yes', 'ProtectHome=yes\nProtectHomme=yes'));
    expect(analyze('verify', broken).stderr).toMatch(/Unknown key 'ProtectHomme'/);
  });

  it('is hardened: exposure level OK (below 2.0) in systemd-analyze security', () => {
    const copy = join(work, 'ragwatch.service');
    copyFileSync(SYSTEMD_UNIT, copy);
    const res = analyze('security', '--offline=true', '--no-pager', copy);
    const level = /Overall exposure level for ragwatch\.service: ([\d.]+)/.exec(res.stdout);
    expect(level, res.stdout + res.stderr).not.toBeNull();
    expect(Number(level![1])).toBeLessThan(2);
    for (const key of ['NoNewPrivileges', 'ProtectSystem', 'ProtectHome', 'PrivateTmp', 'DynamicUser'])
      expect(get(key), key).not.toEqual([]);
  });

  it('runs the daemon with the state in its StateDirectory and stops more slowly than the shutdown deadline', () => {
    const exec = get('ExecStart')[0] ?? '';
    expect(exec).toMatch(/\bdist\/cli\.js run\b/);
    const env = Object.fromEntries(get('Environment').map((e) => e.split('=', 2) as [string, string]));
    for (const name of Object.keys(env)) if (name !== 'NODE_ENV') expect(KNOWN_ENV, name).toContain(name);
    expect(env.NODE_ENV).toBe('production');
    expect(env.RAGWATCH_STATE_PATH).toBe(`/var/lib/${get('StateDirectory')[0]}/ragwatch.db`);
    expect(get('WorkingDirectory')[0]).toBe(`/var/lib/${get('StateDirectory')[0]}`);
    const stopSeconds = Number(/^(\d+)s?$/.exec(get('TimeoutStopSec')[0] ?? '')?.[1]);
    expect(stopSeconds).toBeGreaterThan(parseConfig({}).http.shutdownDeadlineSeconds);
    expect(get('KillSignal')).toEqual(['SIGTERM']);
    // A bad configuration (exit 2) is not retried in a loop.
    expect(get('RestartPreventExitStatus')[0]?.split(/\s+/)).toContain('2');
  });
});
