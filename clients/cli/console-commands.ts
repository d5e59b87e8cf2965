import { initClient } from '@ts-rest/core';
import { consoleContract } from '../../contract/admin/console-contract.js';

export const CONSOLE_USAGE = `  console link                       a one-time sign-in link to /console for the operator (5 minutes)
  console settings <tenant id> --administrator Function/Action [--auditor Function/Action]
  console get <tenant id>`;

/** `Administration/Manage` as a power; anything else is left for the API to refuse. */
const power = (value: string) => {
  const slash = value.indexOf('/');
  return { function: value.slice(0, slash), action: value.slice(slash + 1) };
};

/** The console commands, or undefined when `command` is none of them. */
export function consoleCommand(
  o: { baseUrl: string; token: string },
  command: string | undefined,
  args: string[],
  values: { administrator?: string | undefined; auditor?: string | undefined },
  need: (v: string | undefined, what: string) => string,
) {
  const api = initClient(consoleContract, {
    baseUrl: o.baseUrl,
    baseHeaders: { authorization: `Bearer ${o.token}` },
  });
  if (command === 'link') return api.createConsoleLink();
  if (command === 'get') return api.getConsoleSettings({ params: { id: need(args[0], 'tenant id') } });
  if (command === 'settings')
    return api.putConsoleSettings({
      params: { id: need(args[0], 'tenant id') },
      body: {
        administrator: power(need(values.administrator, '--administrator Function/Action')),
        auditor: values.auditor ? power(values.auditor) : null,
      },
    });
  return undefined;
}
