//! The cost model's benchmark (`make bench-cost`, part of `make bench`): a scripted day through a fresh local
//! stack, every AWS call metered per service, priced with local/src/cost/prices.rs. VISITS (20) visits and
//! SUBSCRIBERS (200) readers of the mailing. Heap is measured by the counting allocator below (the heap, not
//! the process's RSS), reset before each request; requests run one at a time.

use local::bench::setting;
use local::cost::{self, prices::Standing, Day, HeapProbe};
use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicU64, Ordering};
use testkit::emulator::{Emulator, LocalNames, LocalStripe, Template};

struct Counting;

static CURRENT: AtomicU64 = AtomicU64::new(0);
static PEAK: AtomicU64 = AtomicU64::new(0);

// SAFETY: every call goes to the system allocator unchanged; only the byte counts are kept beside it.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let pointer = System.alloc(layout);
        if !pointer.is_null() {
            let now =
                CURRENT.fetch_add(layout.size() as u64, Ordering::Relaxed) + layout.size() as u64;
            PEAK.fetch_max(now, Ordering::Relaxed);
        }
        pointer
    }

    unsafe fn dealloc(&self, pointer: *mut u8, layout: Layout) {
        System.dealloc(pointer, layout);
        CURRENT.fetch_sub(layout.size() as u64, Ordering::Relaxed);
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

const HEAP: HeapProbe = HeapProbe {
    reset: || {
        let now = CURRENT.load(Ordering::Relaxed);
        PEAK.store(now, Ordering::Relaxed);
        now
    },
    peak: || PEAK.load(Ordering::Relaxed),
};

type BoxError = Box<dyn std::error::Error + Send + Sync>;

#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() -> Result<(), BoxError> {
    let day = Day {
        visits: setting("VISITS", 20),
        subscribers: setting("SUBSCRIBERS", 200),
    };
    let waf = setting("WAF", 1u8) == 1;
    println!(
        "== Cost model: {} visits, a checkout per card outcome, an admin session, a mailing to {} subscribers",
        day.visits, day.subscribers
    );
    let text = std::fs::read_to_string(testkit::emulator::repo_root().join("template.yaml"))?;
    let standing = Standing::from_template(&text)?;
    let dist = std::env::var_os("FRONTEND_DIST")
        .map(std::path::PathBuf::from)
        .unwrap_or_else(|| testkit::emulator::repo_root().join("frontend/dist"));
    let emulator = Emulator::start()?;
    let stripe = match LocalStripe::start(None) {
        Ok(stripe) => stripe,
        Err(error) => {
            emulator.stop();
            return Err(error);
        }
    };
    let result = run(&emulator, &stripe, dist, &day, &standing, waf).await;
    stripe.stop();
    emulator.stop();
    result
}

async fn run(
    emulator: &Emulator,
    stripe: &LocalStripe,
    dist: std::path::PathBuf,
    day: &Day,
    standing: &Standing,
    waf: bool,
) -> Result<(), BoxError> {
    let names = LocalNames::new("benchcost");
    let meter = cost::meter_for(&Template::load_default()?, &names);
    let hook = |env: &mut local::functions::LocalEnv| meter.wrap(env);
    let gateway = local::build_hooked(
        emulator,
        stripe,
        &names,
        dist,
        "http://127.0.0.1:3993",
        &local::mail::Options::from_env(),
        &hook,
    )
    .await?;
    let mut bench = cost::Bench::new(&gateway, meter.clone(), HEAP, stripe, emulator, standing);
    cost::run_day(&mut bench, &gateway, day).await?;
    cost::report(&bench, standing, waf);
    Ok(())
}
