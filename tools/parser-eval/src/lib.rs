//! The harness shared by the parser binaries: parse the files named on the command line (speed
//! in MB/s, files that fail to parse), print the trees of `-e` lines, or count panics on
//! `-fuzz N` random shell-ish inputs.
use std::time::Instant;
/// Runs `parse` over every file named on the command line (or the hostile lines when `-e`),
/// reporting per-file failures, total bytes and MB/s; then random inputs for panics.
pub fn main_with(name: &str, parse: &dyn Fn(&str) -> Result<String, String>) {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.first().map(String::as_str) == Some("-e") {
        for line in &args[1..] {
            match parse(line) {
                Ok(s) => println!("OK  {line}\n    {s}"),
                Err(e) => println!("ERR {line}\n    {e}"),
            }
        }
        return;
    }
    if args.first().map(String::as_str) == Some("-fuzz") {
        let n: usize = args[1].parse().unwrap();
        let mut seed: u64 = 0x9E3779B97F4A7C15;
        let alphabet = b"ab $(){}[]<>|&;'\"`\\\n#=!*?~-<<EOF\tcase in esac if then fi do done for while function";
        let mut panics = 0;
        let t = Instant::now();
        for i in 0..n {
            let len = (i % 200) + 1;
            let mut s = Vec::with_capacity(len);
            for _ in 0..len { seed ^= seed << 13; seed ^= seed >> 7; seed ^= seed << 17; s.push(alphabet[(seed % alphabet.len() as u64) as usize]); }
            let text = String::from_utf8_lossy(&s).into_owned();
            let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| { let _ = parse(&text); }));
            if r.is_err() { panics += 1; if panics <= 3 { eprintln!("PANIC on {:?}", text); } }
        }
        println!("{name}: {n} random inputs, {panics} panics, {:.1}s", t.elapsed().as_secs_f64());
        return;
    }
    let reps: usize = std::env::var("REPS").ok().and_then(|r| r.parse().ok()).unwrap_or(5);
    let texts: Vec<(String, String)> = args.iter().filter_map(|p| Some((p.clone(), std::fs::read_to_string(p).ok()?))).collect();
    let bytes: usize = texts.iter().map(|t| t.1.len()).sum();
    let mut failed = 0;
    for (p, t) in &texts { if let Err(e) = parse(t) { failed += 1; if std::env::var("SHOW").is_ok() { eprintln!("FAIL {p}: {}", e.lines().next().unwrap_or("")); } } }
    let t0 = Instant::now();
    for _ in 0..reps { for (_, t) in &texts { let _ = std::hint::black_box(parse(t)); } }
    let secs = t0.elapsed().as_secs_f64() / reps as f64;
    println!("{name}: {} files, {:.2} MB, {failed} failed to parse, {:.1} ms per pass, {:.1} MB/s", texts.len(), bytes as f64 / 1e6, secs * 1e3, bytes as f64 / 1e6 / secs);
}
