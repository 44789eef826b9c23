//! Finding the byte span of a key path in the source, for semantic errors.

use std::ops::Range;
use toml_edit::{ImDocument, Item, Table, Value};

/// One step of a path: a key or an array index.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Seg {
    Key(String),
    Index(usize),
}

impl From<&str> for Seg {
    fn from(s: &str) -> Seg {
        Seg::Key(s.to_string())
    }
}
impl From<usize> for Seg {
    fn from(i: usize) -> Seg {
        Seg::Index(i)
    }
}

/// A parsed document able to answer "where is this path".
pub struct Locator {
    doc: Option<ImDocument<String>>,
}

#[derive(Clone, Copy)]
enum Node<'a> {
    Item(&'a Item),
    Table(&'a Table),
    Value(&'a Value),
}

impl Locator {
    pub fn new(source: &str) -> Locator {
        Locator {
            doc: ImDocument::parse(source.to_string()).ok(),
        }
    }

    /// Span of the value at `path`, or of the deepest key found on the way.
    pub fn span(&self, path: &[Seg]) -> Option<Range<usize>> {
        let doc = self.doc.as_ref()?;
        let mut node = Node::Table(doc.as_table());
        let mut best: Option<Range<usize>> = None;
        for seg in path {
            let next = match (&node, seg) {
                (Node::Table(t), Seg::Key(k)) => t.get_key_value(k).map(|(key, item)| {
                    if let Some(s) = key.span() {
                        best = Some(s);
                    }
                    Node::Item(item)
                }),
                (Node::Item(Item::Table(t)), Seg::Key(k)) => {
                    t.get_key_value(k).map(|(key, item)| {
                        if let Some(s) = key.span() {
                            best = Some(s);
                        }
                        Node::Item(item)
                    })
                }
                (Node::Item(Item::Value(Value::InlineTable(t))), Seg::Key(k))
                | (Node::Value(Value::InlineTable(t)), Seg::Key(k)) => {
                    t.get_key_value(k).map(|(key, v)| {
                        if let Some(s) = key.span() {
                            best = Some(s);
                        }
                        Node::Item(v)
                    })
                }
                (Node::Item(Item::ArrayOfTables(a)), Seg::Index(i)) => a.get(*i).map(|t| {
                    if let Some(s) = t.span() {
                        best = Some(s);
                    }
                    Node::Table(t)
                }),
                (Node::Item(Item::Value(Value::Array(a))), Seg::Index(i))
                | (Node::Value(Value::Array(a)), Seg::Index(i)) => a.get(*i).map(|v| {
                    if let Some(s) = v.span() {
                        best = Some(s);
                    }
                    Node::Value(v)
                }),
                // A key that takes one table or an array of them (`qualification`): a single
                // table is the array's only element.
                (
                    Node::Table(_)
                    | Node::Item(Item::Table(_))
                    | Node::Item(Item::Value(Value::InlineTable(_)))
                    | Node::Value(Value::InlineTable(_)),
                    Seg::Index(0),
                ) => Some(node),
                _ => None,
            };
            match next {
                Some(n) => node = n,
                None => return best,
            }
        }
        let own = match node {
            Node::Item(Item::Value(v)) | Node::Value(v) => v.span(),
            Node::Item(i) => i.span(),
            Node::Table(t) => t.span(),
        };
        own.or(best)
    }
}
