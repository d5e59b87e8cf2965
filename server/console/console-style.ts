/**
 * The console's stylesheet, served as /console/assets/console.css: the CSP allows styles from the
 * service's own origin only (no inline styles), so every look lives here. The tenant's colour comes
 * from /console/assets/brand/<tenant>.css as two custom properties. Colours keep WCAG AA contrast;
 * focus is always visible.
 */
export const CONSOLE_CSS = `
:root { --brand: #1f5fd1; --on-brand: #ffffff; --ink: #1b1f24; --muted: #4a5361; --line: #c9ced6;
  --bad: #a4161a; --good: #1e6b2e; --warn: #7a4b00; font-family: system-ui, sans-serif; color: var(--ink); }
body { margin: 0; background: #f6f7f9; line-height: 1.45; }
a { color: #0b4bb3; }
a:focus-visible, button:focus-visible, input:focus-visible, select:focus-visible, textarea:focus-visible, summary:focus-visible {
  outline: 3px solid #ffbf47; outline-offset: 2px; }
.skip { position: absolute; left: -999px; top: 0; background: #fff; padding: .5rem; }
.skip:focus { left: .5rem; z-index: 2; }
header.brand { background: var(--brand); color: var(--on-brand); display: flex; align-items: center;
  gap: 1rem; padding: .6rem 1.2rem; }
header.brand .logo { max-height: 2rem; }
header.brand .tenant { font-weight: 600; font-size: 1.1rem; }
header.brand .who { margin-left: auto; font-size: .9rem; }
header.brand form { display: inline; }
header.brand button { background: transparent; color: var(--on-brand); border: 1px solid var(--on-brand); }
nav.main ul { display: flex; flex-wrap: wrap; gap: .2rem 1rem; list-style: none; margin: 0; padding: .5rem 1.2rem;
  background: #fff; border-bottom: 1px solid var(--line); }
nav.main a[aria-current="page"] { font-weight: 700; text-decoration-thickness: 3px; }
main { padding: 1rem 1.2rem 3rem; max-width: 80rem; }
h1 { font-size: 1.5rem; margin: .5rem 0 1rem; }
table { border-collapse: collapse; width: 100%; background: #fff; margin: .5rem 0 1rem; }
th, td { text-align: left; padding: .4rem .6rem; border-bottom: 1px solid var(--line); vertical-align: top; }
th { background: #eef0f3; }
code, .mono { font-family: ui-monospace, monospace; font-size: .85rem; word-break: break-all; }
form.filters { display: flex; flex-wrap: wrap; gap: .6rem 1rem; align-items: end; background: #fff;
  padding: .8rem; border: 1px solid var(--line); }
form.filters label, form.action label { display: flex; flex-direction: column; font-size: .9rem; }
input, select, textarea, button { font: inherit; padding: .3rem .5rem; border: 1px solid #6b7380; border-radius: 3px; }
button { background: var(--brand); color: var(--on-brand); cursor: pointer; }
button.danger { background: var(--bad); color: #fff; }
form.action { display: flex; flex-wrap: wrap; gap: .4rem; align-items: end; margin: .3rem 0; }
.status { font-weight: 600; }
.status-valid, .status-verified, .status-issued, .status-ok { color: var(--good); }
.status-revoked, .status-failed, .status-withdrawn, .status-invalid { color: var(--bad); }
.status-suspended, .status-offered, .status-expired, .status-pending { color: var(--warn); }
.notice { background: #fff; border-left: 4px solid var(--brand); padding: .6rem 1rem; margin: .5rem 0 1rem; }
.notice.error { border-color: var(--bad); }
.panel { background: #fff; border: 1px solid var(--line); padding: 1rem; margin: 0 0 1rem; max-width: 40rem; }
.charts { display: grid; grid-template-columns: repeat(auto-fit, minmax(22rem, 1fr)); gap: 1rem; }
figure.chart { background: #fff; border: 1px solid var(--line); margin: 0; padding: .8rem; }
figure.chart svg { width: 100%; height: auto; }
figure.chart .bar-a { fill: var(--brand); } figure.chart .bar-b { fill: var(--bad); }
figure.chart .axis { stroke: #6b7380; } figure.chart text { font-size: 10px; fill: var(--ink); }
.pager { display: flex; gap: 1rem; }
.secret { display: block; background: #eef0f3; padding: .4rem; user-select: all; }
.qr { width: 12rem; height: 12rem; background: #fff; }
.previews { display: flex; flex-wrap: wrap; gap: 1rem; } figure.preview { margin: 0; }
figure.preview iframe { border: 1px solid var(--line); background: #fff; display: block; }
.status-stale { color: var(--warn); } ul.members { margin: 0 0 1rem; }
`;
