/// Line docs
/// over two lines.
#[derive(
    Debug,
    Clone,
)]
#[serde(rename_all = "camelCase")]
pub struct Config {
    name: String,
}

/**
 * Block docs.
 */
#[inline]
#[must_use]
pub fn build() -> Config {
    Config { name: String::new() }
}

#[cfg(all(unix, not(target_os = "macos")))]
pub
fn
split_over_lines() {}

impl Config {
    #[doc = "Attribute docs."]
    #[allow(dead_code)]
    pub fn name(&self) -> &str {
        &self.name
    }
}

#[allow(non_upper_case_globals)]
/// Docs after the attribute.
pub const answer: u32 = 42;
