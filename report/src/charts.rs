//! The report's plots, drawn by plotters into SVG strings.

use plotters::prelude::*;

const W: u32 = 720;
const H: u32 = 340;
const FONT: &str = "sans-serif";

type Result = std::result::Result<String, String>;

fn draw(f: impl FnOnce(DrawingArea<SVGBackend, plotters::coord::Shift>) -> std::result::Result<(), String>) -> Result {
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (W, H)).into_drawing_area();
        root.fill(&WHITE).map_err(|e| e.to_string())?;
        f(root.clone())?;
        root.present().map_err(|e| e.to_string())?;
    }
    Ok(svg)
}

fn e(x: impl std::fmt::Display) -> String {
    x.to_string()
}

/// A chart whose x axis is categories `0..n` (labelled by `names`) and y runs `y0..y1`.
fn categorical<'a, 'b>(
    root: &'a DrawingArea<SVGBackend<'b>, plotters::coord::Shift>,
    title: &str,
    names: &'a [String],
    y: std::ops::Range<f64>,
    y_desc: &str,
) -> std::result::Result<
    ChartContext<
        'a,
        SVGBackend<'b>,
        Cartesian2d<plotters::coord::types::RangedCoordf64, plotters::coord::types::RangedCoordf64>,
    >,
    String,
> {
    let n = names.len().max(1);
    let mut chart = ChartBuilder::on(root)
        .caption(title, (FONT, 18))
        .margin(12)
        .x_label_area_size(36)
        .y_label_area_size(56)
        .build_cartesian_2d(-0.5f64..n as f64 - 0.5, y)
        .map_err(e)?;
    let label = |x: &f64| {
        let i = x.round();
        if (x - i).abs() < 1e-6 && i >= 0.0 && (i as usize) < names.len() {
            names[i as usize].clone()
        } else {
            String::new()
        }
    };
    chart
        .configure_mesh()
        .x_labels(n)
        .x_label_formatter(&label)
        .y_label_formatter(&|v| if y_desc == "games" { format!("{v:.0}") } else { format!("{v:.1}") })
        .y_desc(y_desc)
        .disable_x_mesh()
        .draw()
        .map_err(e)?;
    Ok(chart)
}

/// Each configuration's White and Black score with 95% error bars.
pub fn scores(configs: &[(String, f64, f64, f64)]) -> Result {
    let names: Vec<String> = configs.iter().map(|c| c.0.clone()).collect();
    let n = names.len();
    draw(|root| {
        let mut chart =
            categorical(&root, "Score per configuration (95% confidence interval)", &names, 0f64..1f64, "score")?;
        chart.draw_series(LineSeries::new([(-0.5, 0.5), (n as f64 - 0.5, 0.5)], BLACK.mix(0.4))).map_err(e)?;
        let white = configs.iter().enumerate().map(|(i, c)| (i as f64 - 0.1, c.1, c.2, c.3));
        let black = configs.iter().enumerate().map(|(i, c)| (i as f64 + 0.1, 1.0 - c.1, 1.0 - c.3, 1.0 - c.2));
        for (series, colour, label) in [(white.collect::<Vec<_>>(), BLUE, "White"), (black.collect(), RED, "Black")] {
            chart
                .draw_series(
                    series.iter().map(|&(x, s, lo, hi)| {
                        ErrorBar::new_vertical(x, lo, s, hi, colour.filled().stroke_width(2), 10)
                    }),
                )
                .map_err(e)?
                .label(label)
                .legend(move |(x, y)| Circle::new((x + 8, y), 4, colour.filled()));
        }
        chart.configure_series_labels().background_style(WHITE.mix(0.8)).border_style(BLACK).draw().map_err(e)?;
        Ok(())
    })
}

/// Colours that read on white, for lines.
const STRONG: [RGBColor; 6] = [RED, BLUE, RGBColor(0, 140, 0), MAGENTA, RGBColor(200, 120, 0), BLACK];

/// A named series of (score, low, high) points, one per budget.
pub type Rungs = (String, Vec<(f64, f64, f64)>);

/// A strength ladder: each series' White score (± 95%) at each budget, joined by lines.
pub fn ladder(budgets: &[String], series: &[Rungs]) -> Result {
    let n = budgets.len();
    draw(|root| {
        let mut chart =
            categorical(&root, "White's score by budget (95% confidence interval)", budgets, 0f64..1f64, "score")?;
        chart.draw_series(LineSeries::new([(-0.5, 0.5), (n as f64 - 0.5, 0.5)], BLACK.mix(0.4))).map_err(e)?;
        let k = series.len().max(1) as f64;
        for (j, (name, points)) in series.iter().enumerate() {
            let colour = STRONG[j % STRONG.len()];
            // Series side by side within a rung, so that error bars do not hide each other.
            let x = |i: usize| i as f64 + (j as f64 - (k - 1.0) / 2.0) * 0.08;
            chart
                .draw_series(LineSeries::new(
                    points.iter().enumerate().map(|(i, p)| (x(i), p.0)),
                    colour.stroke_width(2),
                ))
                .map_err(e)?
                .label(name.clone())
                .legend(move |(x, y)| Rectangle::new([(x, y - 2), (x + 12, y + 2)], colour.filled()));
            chart
                .draw_series(
                    points
                        .iter()
                        .enumerate()
                        .map(|(i, &(s, lo, hi))| ErrorBar::new_vertical(x(i), lo, s, hi, colour.filled(), 8)),
                )
                .map_err(e)?;
        }
        chart
            .configure_series_labels()
            .position(SeriesLabelPosition::LowerRight)
            .background_style(WHITE.mix(0.8))
            .border_style(BLACK)
            .draw()
            .map_err(e)?;
        Ok(())
    })
}

/// Counts per category and series, as grouped bars.
pub fn grouped_bars(title: &str, categories: &[String], series: &[(String, Vec<u64>)]) -> Result {
    draw(|root| {
        let top = series.iter().flat_map(|s| s.1.iter()).copied().max().unwrap_or(1).max(1) as f64 * 1.1;
        let mut chart = categorical(&root, title, categories, 0f64..top, "games")?;
        let k = series.len().max(1) as f64;
        let width = 0.8 / k;
        for (j, (name, counts)) in series.iter().enumerate() {
            let colour = Palette99::pick(j).to_rgba();
            chart
                .draw_series(counts.iter().enumerate().map(|(i, &c)| {
                    let x0 = i as f64 - 0.4 + j as f64 * width;
                    Rectangle::new([(x0, 0.0), (x0 + width * 0.9, c as f64)], colour.filled())
                }))
                .map_err(e)?
                .label(name.clone())
                .legend(move |(x, y)| Rectangle::new([(x, y - 5), (x + 10, y + 5)], colour.filled()));
        }
        if series.len() > 1 {
            chart.configure_series_labels().background_style(WHITE.mix(0.8)).border_style(BLACK).draw().map_err(e)?;
        }
        Ok(())
    })
}

/// A histogram of game lengths in plies.
pub fn lengths(plies: &[u32]) -> Result {
    let max = plies.iter().copied().max().unwrap_or(10);
    let bucket = ((max / 30).max(1) as f64 / 5.0).ceil() as u32 * 5;
    let mut counts = vec![0u64; (max / bucket + 1) as usize];
    for &p in plies {
        counts[(p / bucket) as usize] += 1;
    }
    draw(|root| {
        let top = counts.iter().copied().max().unwrap_or(1) as f64 * 1.1;
        let mut chart = ChartBuilder::on(&root)
            .caption(format!("Game length (plies, buckets of {bucket})"), (FONT, 18))
            .margin(12)
            .x_label_area_size(36)
            .y_label_area_size(56)
            .build_cartesian_2d(0f64..(counts.len() as u32 * bucket) as f64, 0f64..top)
            .map_err(e)?;
        chart
            .configure_mesh()
            .x_desc("plies")
            .y_desc("games")
            .x_label_formatter(&|x| format!("{x:.0}"))
            .y_label_formatter(&|y| format!("{y:.0}"))
            .disable_x_mesh()
            .draw()
            .map_err(e)?;
        chart
            .draw_series(counts.iter().enumerate().map(|(i, &c)| {
                let x0 = (i as u32 * bucket) as f64;
                Rectangle::new([(x0, 0.0), (x0 + bucket as f64 * 0.92, c as f64)], BLUE.mix(0.7).filled())
            }))
            .map_err(e)?;
        Ok(())
    })
}

/// Lines over x, with optional horizontal reference lines.
pub fn lines(title: &str, x_desc: &str, y_desc: &str, series: &[(String, Vec<(f64, f64)>)], hlines: &[f64]) -> Result {
    let xs = series.iter().flat_map(|s| s.1.iter().map(|p| p.0));
    let ys = series.iter().flat_map(|s| s.1.iter().map(|p| p.1)).chain(hlines.iter().copied());
    let (x0, x1) = xs.fold((f64::MAX, f64::MIN), |(a, b), x| (a.min(x), b.max(x)));
    let (y0, y1) = ys.fold((f64::MAX, f64::MIN), |(a, b), y| (a.min(y), b.max(y)));
    let (x0, x1) = if x0 < x1 { (x0, x1) } else { (x0 - 1.0, x0 + 1.0) };
    let pad = ((y1 - y0).abs() * 0.08).max(1e-6);
    draw(|root| {
        let mut chart = ChartBuilder::on(&root)
            .caption(title, (FONT, 18))
            .margin(12)
            .x_label_area_size(36)
            .y_label_area_size(64)
            .build_cartesian_2d(x0..x1, (y0 - pad)..(y1 + pad))
            .map_err(e)?;
        chart.configure_mesh().x_desc(x_desc).y_desc(y_desc).draw().map_err(e)?;
        for &h in hlines {
            chart.draw_series(LineSeries::new([(x0, h), (x1, h)], BLACK.mix(0.5))).map_err(e)?;
        }
        for (j, (name, pts)) in series.iter().enumerate() {
            let colour = Palette99::pick(j).to_rgba();
            chart
                .draw_series(LineSeries::new(pts.iter().copied(), colour.stroke_width(2)))
                .map_err(e)?
                .label(name.clone())
                .legend(move |(x, y)| PathElement::new([(x, y), (x + 14, y)], colour.stroke_width(2)));
        }
        chart.configure_series_labels().background_style(WHITE.mix(0.8)).border_style(BLACK).draw().map_err(e)?;
        Ok(())
    })
}

/// Values with ± error bars, one per label.
pub fn values(title: &str, y_desc: &str, items: &[(String, f64, f64)]) -> Result {
    let top = items.iter().map(|i| i.1 + i.2).fold(1.0f64, f64::max) * 1.1;
    let names: Vec<String> = items.iter().map(|i| i.0.clone()).collect();
    draw(|root| {
        let mut chart = categorical(&root, title, &names, 0f64..top, y_desc)?;
        chart
            .draw_series(items.iter().enumerate().map(|(i, (_, v, se))| {
                ErrorBar::new_vertical(i as f64, v - se, *v, v + se, BLUE.filled().stroke_width(2), 12)
            }))
            .map_err(e)?;
        Ok(())
    })
}
