/** Reads a server-sent event stream into text as it arrives; `done` resolves when the server closes it. */
export async function openEventStream(url: string) {
  const response = await fetch(url);
  const reader = response.body?.getReader();
  let text = '';
  const done = (async () => {
    for (;;) {
      const chunk = await reader?.read();
      if (!chunk || chunk.done) return text;
      text += new TextDecoder().decode(chunk.value);
    }
  })();
  return { response, text: () => text, done };
}

/** The statuses the `status` events of a session's stream carried, in order. */
export const statusesOf = (text: string) =>
  [...text.matchAll(/^data: (.*)$/gm)].map((m) => (JSON.parse(m[1] ?? '{}') as { status: string }).status);
