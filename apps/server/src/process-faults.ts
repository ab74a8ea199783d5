/** Where the fatal entry goes: the app's logger once there is one. */
export interface FatalLogger {
  fatal(object: object, message: string): void;
}

/** Until the app's logger exists: the standard error stream. */
export const STDERR_LOGGER: FatalLogger = {
  fatal: (object, message) => console.error(message, object),
};

/**
 * Ends the process on an error nothing caught (an exception, or a promise rejection nobody handled:
 * Node raises those as exceptions too), with the error and its stack in the log and exit code 1, so a
 * supervisor (systemd `Restart=on-failure`, docs/operations.md) starts it afresh. Carrying on after
 * one would leave the broker, the sockets and the pending writes in a state nobody can reason about.
 */
export function exitOnUncaughtError(logger: () => FatalLogger): void {
  process.on('uncaughtException', (error, origin) => {
    try {
      logger().fatal({ err: error, origin }, 'Uncaught error: the process stops (exit code 1)');
    } catch {
      console.error(error);
    }
    process.exit(1);
  });
}
