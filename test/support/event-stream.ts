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
