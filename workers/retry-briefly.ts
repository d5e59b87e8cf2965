/**
 * Runs `write` until it succeeds, for up to about half a minute. For writes that record work already
 * done (a mail accepted by SMTP, a job finished): failing them because the database is restarting
 * would make the work run again, so they wait for the database instead.
 */
export async function retryBriefly<T>(write: () => Promise<T>, tries = 20): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await write();
    } catch (e) {
      if (attempt >= tries) throw e;
      await new Promise((r) => setTimeout(r, Math.min(250 * attempt, 2_000)));
    }
  }
}
