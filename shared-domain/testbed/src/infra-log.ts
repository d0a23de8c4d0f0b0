/** Where the one line saying what was started goes. Tests pass their own to stay quiet. */
export type InfraLog = (line: string) => void;

export const stderrLog: InfraLog = (line) => {
  process.stderr.write(`${line}\n`);
};
