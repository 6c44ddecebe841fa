import { spawn, spawnSync, type ChildProcess } from 'node:child_process';

/**
 * A real, small filesystem for one process: `unshare` gives the child its own user and mount namespaces
 * (no root needed where user namespaces are enabled) and mounts a tmpfs of `sizeKb` on `dir` before starting
 * `command`. Creating the file `fillFlag` fills the tmpfs to the last byte; creating `freeFlag` empties it
 * again. Only the child (and its own children) see the mount.
 */
export interface TmpfsProcess {
  child: ChildProcess;
}

const SCRIPT = `
set -e
mount -t tmpfs -o size="$SIZE_KB"k tmpfs "$MOUNT_DIR"
"$@" &
pid=$!
trap 'kill -TERM $pid 2>/dev/null; wait $pid; exit $?' TERM INT
while [ ! -e "$FILL_FLAG" ]; do sleep 0.1; if ! kill -0 $pid 2>/dev/null; then wait $pid; exit $?; fi; done
cat /dev/zero > "$MOUNT_DIR/filler" 2>/dev/null || true
while [ ! -e "$FREE_FLAG" ]; do sleep 0.1; if ! kill -0 $pid 2>/dev/null; then wait $pid; exit $?; fi; done
rm -f "$MOUNT_DIR/filler"
wait $pid
`;

export function spawnOnTmpfs(
  options: { dir: string; sizeKb: number; fillFlag: string; freeFlag: string; env?: NodeJS.ProcessEnv },
  command: string,
  args: string[],
): TmpfsProcess {
  const child = spawn('unshare', ['--user', '--map-root-user', '--mount', 'sh', '-c', SCRIPT, 'sh', command, ...args], {
    env: {
      ...options.env,
      SIZE_KB: String(options.sizeKb),
      MOUNT_DIR: options.dir,
      FILL_FLAG: options.fillFlag,
      FREE_FLAG: options.freeFlag,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return { child };
}

/** Whether this machine lets an unprivileged process mount a tmpfs in its own namespaces. */
export function tmpfsAvailable(env: NodeJS.ProcessEnv = process.env): boolean {
  const res = spawnSync(
    'unshare',
    ['--user', '--map-root-user', '--mount', 'sh', '-c', 'mount -t tmpfs -o size=64k tmpfs /mnt'],
    { env, encoding: 'utf8', timeout: 10_000 },
  );
  return !res.error && res.status === 0;
}
