//! One listing as every surface publishes it (content/method.md#json).
//!
//! The method's answer rows, the API's record blocks and explore's rows all publish the
//! same facts about a listing; each adds fields of its own (a match_score, an id and a
//! slug, a position and ranks). [`Listing`] reads those facts from an entry once, and
//! writes them in three groups (what is listed, the figures, and how it is shown) that
//! each surface lays out around its own fields. So a published field is named, read and
//! placed in one place, and a field a surface adds cannot drift into another.

use serde::ser::SerializeStruct;

use super::assets::Decimal;
use super::figures::Figures;
use super::index::{Entry, Index, Price};
use super::names;
use super::probe::Seen;
use super::request::Request;
use super::screen::Withheld;
use super::Method;

/// The published facts of one listing.
#[derive(Debug, Clone)]
pub struct Listing<'a> {
    pub resource: &'a str,
    pub service_name: Option<&'a str>,
    /// `None` when absent or withheld (content/method.md#screening).
    pub description: Option<&'a str>,
    pub description_withheld: Option<&'a Withheld>,
    pub(crate) prices: Vec<Price>,
    pub min_price_usd: Option<Decimal>,
    pub(crate) networks: &'a [String],
    /// The first request the listing describes, as its page shows it.
    pub(crate) call: Request,
    pub figures: Figures,
    pub(crate) segments: &'a [String],
    /// What the snapshot's probe saw of it; `None` when the snapshot was not probed.
    pub probe: Option<Seen<'a>>,
    pub operator_listing: bool,
    /// The absolute address of the listing's page on the published site.
    pub(crate) page: String,
}

/// Which of the listing's fields a surface publishes: explore's rows leave out the
/// prices (they carry the lowest USD price), the call and the segments.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fields {
    All,
    Summary,
}

impl<'a> Listing<'a> {
    pub fn of(e: &'a Entry, index: &'a Index, method: &Method) -> Listing<'a> {
        Listing {
            resource: &e.resource.url,
            service_name: e.resource.service_name.as_deref(),
            description: e.public_description(),
            description_withheld: e.withheld.as_deref(),
            prices: e.prices(method),
            min_price_usd: e.min_price_usd,
            networks: &e.networks,
            call: Request::of(&e.resource, method),
            figures: e.figures,
            segments: &e.segments,
            probe: index.probe.as_ref().and_then(|p| p.result(&e.resource.url)).map(Seen),
            operator_listing: e.operator_listing,
            page: page_url(method, index, e),
        }
    }

    /// What is listed: resource, service name, description (or the withheld notice),
    /// prices, the call and networks.
    pub fn write_listed<S: SerializeStruct>(&self, s: &mut S, fields: Fields) -> Result<(), S::Error> {
        s.serialize_field("resource", self.resource)?;
        s.serialize_field("service_name", &self.service_name)?;
        s.serialize_field("description", &self.description)?;
        s.serialize_field("description_withheld", &self.description_withheld)?;
        if fields == Fields::All {
            s.serialize_field("prices", &self.prices)?;
            s.serialize_field("call", &self.call)?;
        }
        s.serialize_field("min_price_usd", &self.min_price_usd)?;
        s.serialize_field("networks", self.networks)
    }

    /// The four figures of content/method.md#figures, payers first (the order ranks them),
    /// then, where the surface publishes them, the segment labels and what the snapshot's
    /// probe saw (content/method.md#probe).
    pub fn write_figures<S: SerializeStruct>(&self, s: &mut S, fields: Fields) -> Result<(), S::Error> {
        s.serialize_field("unique_payers_30d", &self.figures.unique_payers_30d)?;
        s.serialize_field("calls_30d", &self.figures.calls_30d)?;
        s.serialize_field("calls_per_payer", &self.figures.calls_per_payer)?;
        s.serialize_field("days_since_last_call", &self.figures.days_since_last_call)?;
        if fields == Fields::All {
            s.serialize_field("segments", self.segments)?;
            s.serialize_field("probe", &self.probe)?;
        }
        Ok(())
    }

    /// How it is shown: whether the site's operator runs it, and its page.
    pub fn write_shown<S: SerializeStruct>(&self, s: &mut S) -> Result<(), S::Error> {
        s.serialize_field("operator_listing", &self.operator_listing)?;
        s.serialize_field("page", &self.page)
    }

    /// The three groups as JSON members, `"name":value,…` with no braces: those
    /// [`Listing::write_listed`] writes, a comma, then those [`Listing::write_figures`] and
    /// [`Listing::write_shown`] write; and the offset of that comma. An answer row and a
    /// record are each these members with one or two of their own (a row's match_score
    /// goes at the comma), so a build makes them once a listing and joins them (an
    /// answer row's `write_joined`).
    pub fn members(&self) -> (Vec<u8>, usize) {
        struct Group<'l, 'a>(&'l Listing<'a>, bool);
        impl serde::Serialize for Group<'_, '_> {
            fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                let mut s = serializer.serialize_struct("Group", Listing::field_count(Fields::All))?;
                if self.1 {
                    self.0.write_listed(&mut s, Fields::All)?;
                } else {
                    self.0.write_figures(&mut s, Fields::All)?;
                    self.0.write_shown(&mut s)?;
                }
                s.end()
            }
        }
        let listed = serde_json::to_vec(&Group(self, true)).expect("a listing serialises");
        let rest = serde_json::to_vec(&Group(self, false)).expect("a listing serialises");
        // Each is `{…}` with at least one member: the members are what the braces hold.
        let (listed, rest) = (&listed[1..listed.len() - 1], &rest[1..rest.len() - 1]);
        let mut members = Vec::with_capacity(listed.len() + 1 + rest.len());
        members.extend_from_slice(listed);
        members.push(b',');
        members.extend_from_slice(rest);
        (members, listed.len())
    }

    /// How many fields the three groups write (a serializer's length hint).
    pub const fn field_count(fields: Fields) -> usize {
        match fields {
            Fields::All => 16,
            Fields::Summary => 12,
        }
    }
}

/// The absolute address of an entry's page on the published site.
pub fn page_url(method: &Method, index: &Index, e: &Entry) -> String {
    names::absolute(&method.site.base_url, &names::resource_page(&index.header.date, &e.slug()))
}

/// `text` cut to at most `max` characters, the last being `…` when cut: a description
/// shortened for a row of a table (the site's result rows, the terminal's).
pub fn clip(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        text.to_owned()
    } else {
        format!("{}…", text.chars().take(max - 1).collect::<String>())
    }
}

#[cfg(test)]
mod tests {
    use serde::{Serialize, Serializer};

    use super::*;
    use catalogue::snapshot::Snapshot;

    /// The three groups alone, as a surface with no fields of its own would write them.
    struct Groups<'a>(Listing<'a>, Fields);

    impl Serialize for Groups<'_> {
        fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
            let mut s = serializer.serialize_struct("Groups", Listing::field_count(self.1))?;
            self.0.write_listed(&mut s, self.1)?;
            self.0.write_figures(&mut s, self.1)?;
            self.0.write_shown(&mut s)?;
            s.end()
        }
    }

    #[test]
    fn field_counts_are_the_fields_written() {
        let method = Method::embedded();
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../content/snapshots/2026-08-20.json");
        let index = Index::build(&Snapshot::read(&path).unwrap(), &method);
        for fields in [Fields::All, Fields::Summary] {
            let value = serde_json::to_value(Groups(Listing::of(&index.entries[0], &index, &method), fields)).unwrap();
            assert_eq!(value.as_object().unwrap().len(), Listing::field_count(fields), "{fields:?}");
        }
    }
}
