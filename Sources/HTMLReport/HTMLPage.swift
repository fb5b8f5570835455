import CVegaBundle
import Reports

/// report.html: one self-contained file. The charts are Vega-Lite specifications with their data inline,
/// drawn as SVG in the browser by the Vega library embedded in the page, so it opens offline in any
/// current browser. Light and dark follow the system; the layout reflows from 1280 px down to a phone.
enum HTMLPage {
  /// The embedded chart library (see Sources/CVegaBundle/THIRD_PARTY.md).
  static let vegaBundle: String = String(
    decoding: UnsafeBufferPointer(start: widgetsim_vega_bundle(), count: widgetsim_vega_bundle_length()), as: UTF8.self)

  static func html(title: String, facts: [(String, String)], charts: [Chart], tables: String, notes: [String]) -> String
  {
    var page = """
      <!DOCTYPE html>
      <html lang="en">
      <head>
      <meta charset="utf-8">
      <meta name="viewport" content="width=device-width, initial-scale=1">
      <meta name="generator" content="widgetsim">
      <title>\(HTMLText.escape(title))</title>
      <style>\(style)</style>
      </head>
      <body>
      <header><h1>\(HTMLText.escape(title))</h1>
      <dl class="facts">
      """
    for (name, value) in facts {
      page += "<div><dt>\(HTMLText.escape(name))</dt><dd>\(HTMLText.escape(value))</dd></div>"
    }
    page += "</dl>\n"
    for note in notes { page += "<p class=\"note\">\(HTMLText.escape(note))</p>\n" }
    page += "</header>\n<ul id=\"errors\" hidden></ul>\n<main>\n<section class=\"charts\">\n"
    for chart in charts {
      let marks = chart.marks.map { "\($0.layer):\($0.count)" }.joined(separator: " ")
      page += """
        <figure id="figure-\(chart.id)"\(chart.wide ? " class=\"wide\"" : "") data-expected-marks="\(marks)">
        <figcaption><h2>\(HTMLText.escape(chart.title))</h2></figcaption>
        <div class="chart" id="\(chart.id)" role="img" aria-label="\(HTMLText.escape(chart.title))"></div>
        <p class="caption">\(HTMLText.escape(chart.caption))</p>
        </figure>

        """
    }
    page += "</section>\n<section class=\"tables\"><h2>Summary</h2>\n\(tables)</section>\n</main>\n"
    let specs = JSONValue.array(
      charts.map { .object([("id", .string($0.id)), ("spec", $0.spec)]) })
    page += "<script type=\"application/json\" id=\"chart-specs\">\(specs.htmlSafeText)</script>\n"
    page += "<script>\(vegaBundle)</script>\n<script>\(script)</script>\n</body>\n</html>\n"
    return page
  }

  static let style = """
    :root { color-scheme: light dark; --fg: #1d1d1f; --bg: #ffffff; --muted: #5f6368; --line: #d9d9de;
      --panel: #fafafa; --bad: #b3261e; }
    @media (prefers-color-scheme: dark) {
      :root { --fg: #e6e6e9; --bg: #17171a; --muted: #a0a0a8; --line: #3a3a40; --panel: #1f1f23; --bad: #f2b8b5; }
    }
    * { box-sizing: border-box; }
    body { margin: 0 auto; max-width: 1280px; padding: 16px; background: var(--bg); color: var(--fg);
      font: 15px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, "DejaVu Sans", sans-serif; }
    h1 { font-size: 1.5rem; margin: 0 0 8px; overflow-wrap: anywhere; }
    h2 { font-size: 1.05rem; margin: 0 0 6px; }
    .facts { display: flex; flex-wrap: wrap; gap: 4px 20px; margin: 0 0 8px; }
    .facts div { display: flex; gap: 6px; min-width: 0; }
    .facts dt { color: var(--muted); }
    .facts dd { margin: 0; overflow-wrap: anywhere; }
    .note, .caption, .muted { color: var(--muted); font-size: 0.9rem; }
    .warning { color: var(--bad); font-weight: 600; }
    .charts { display: grid; grid-template-columns: repeat(auto-fit, minmax(min(100%, 560px), 1fr)); gap: 16px; }
    figure { margin: 0; padding: 12px; border: 1px solid var(--line); border-radius: 8px; background: var(--panel);
      min-width: 0; }
    figure.wide { grid-column: 1 / -1; }
    .chart { width: 100%; min-height: 280px; }
    figure.wide { grid-column: 1 / -1; }
    .caption { margin: 6px 0 0; }
    .tables { margin-top: 24px; }
    details { margin: 8px 0; }
    summary { cursor: pointer; font-weight: 600; }
    .table-wrap { overflow-x: auto; }
    table.sweep-points { width: max-content; min-width: 100%; }
    table.sweep-points th, table.sweep-points td { white-space: nowrap; }
    table { border-collapse: collapse; width: 100%; font-size: 0.9rem; }
    th, td { text-align: left; padding: 4px 8px; border-bottom: 1px solid var(--line); vertical-align: top; }
    td.number { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
    #errors { color: var(--bad); }
    """

  /// Draws every chart as SVG, in the dark theme when the system is dark (and again when that changes).
  /// Errors are listed at the top of the page; on the body, `data-rendered` says when all are drawn and
  /// `data-overflow` whether the page is wider than the window (it should reflow instead).
  static let script = """
    "use strict";
    const charts = JSON.parse(document.getElementById("chart-specs").textContent);
    function report(message) {
      const list = document.getElementById("errors");
      const item = document.createElement("li");
      item.textContent = String(message);
      list.appendChild(item);
      list.hidden = false;
    }
    window.addEventListener("error", (event) => report(event.message));
    const scheme = window.matchMedia("(prefers-color-scheme: dark)");
    async function render() {
      document.body.dataset.rendered = "false";
      const options = { renderer: "svg", actions: false, config: { background: "transparent" } };
      // Vega's dark theme lightens axes and legends but not text marks (the server peak's label): as the page.
      if (scheme.matches) { options.theme = "dark"; options.config.text = { color: "#e6e6e9" }; }
      await Promise.all(charts.map((chart) =>
        vegaEmbed("#" + chart.id, chart.spec, options).catch((error) => report(chart.id + ": " + error))));
      document.body.dataset.overflow = String(document.documentElement.scrollWidth > window.innerWidth + 1);
      document.body.dataset.rendered = "true";
    }
    scheme.addEventListener("change", render);
    render();
    """
}
