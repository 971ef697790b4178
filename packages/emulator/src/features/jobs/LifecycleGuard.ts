/**
 * create_job refuses a prompt that would stop or restart the gateway itself (`hermes gateway
 * restart|stop`, launchctl/systemctl acting on hermes-gateway, pkill/kill naming hermes and gateway),
 * so a job cannot put the gateway into a restart loop. Answers the ValueError text, or undefined.
 */
const LIFECYCLE_COMMAND =
  /hermes\s+gateway\s+(?:restart|stop)|launchctl\s+(?:kickstart|unload|load|stop|restart)\b[^\n]*\bhermes[.-]?gateway|systemctl\s+(?:-\S+\s+)*(?:restart|stop|start)\b[^\n]*\bhermes[.-]?gateway|p?kill\b[^\n]*\bhermes\b[^\n]*\bgateway|p?kill\b[^\n]*\bgateway\b[^\n]*\bhermes/i

export const lifecycleCommandError = (prompt: string): string | undefined =>
  LIFECYCLE_COMMAND.test(prompt)
    ? "Blocked: cron job contains a gateway lifecycle command (restart/stop/kill). This is blocked to prevent " +
      "agent-driven SIGTERM-respawn loops under launchd/systemd supervision (#30719). Run `hermes gateway restart` " +
      "from a shell outside the running gateway instead."
    : undefined
