//! A reader for Godot's INI-like text files: scenes (`.tscn`), `project.godot`,
//! `.gdextension` and `.godot/extension_list.cfg`.
//!
//! The file is a list of sections. A section starts with a one-line header
//! `[tag key=value key=value]`; properties `key = value` follow, one per line, where a value may
//! span lines while brackets are open (arrays, dictionaries, `Object(...)` in the input map).
//! Properties before the first header (`config_version=5` in `project.godot`) belong to a
//! section with an empty tag. `;` starts a comment line. Values are kept as their source text;
//! helpers decode the parts the checks need (strings, `Name(args)` calls, numbers).
//!
//! It is deliberately strict: anything it does not understand is an error with a line number,
//! so a broken file fails the checks instead of being skipped.

use std::fmt;

/// One `[tag ...]` section and the properties under it.
#[derive(Debug, Clone, PartialEq)]
pub struct Section {
    /// The header's tag (`node`, `ext_resource`, `configuration`, ...); empty for properties
    /// before the first header.
    pub tag: String,
    /// The header's `key=value` pairs, values as source text.
    pub attributes: Vec<(String, String)>,
    /// The `key = value` lines, values as source text.
    pub properties: Vec<(String, String)>,
    /// Line of the header (1-based; 1 for the section before the first header).
    pub line: usize,
}

impl Section {
    /// The source text of header attribute `key`.
    pub fn attribute(&self, key: &str) -> Option<&str> {
        find(&self.attributes, key)
    }

    /// Header attribute `key` decoded as a string literal.
    pub fn attribute_string(&self, key: &str) -> Option<String> {
        self.attribute(key).and_then(string_literal)
    }

    /// The source text of property `key`.
    pub fn property(&self, key: &str) -> Option<&str> {
        find(&self.properties, key)
    }

    /// Property `key` decoded as a string literal.
    pub fn property_string(&self, key: &str) -> Option<String> {
        self.property(key).and_then(string_literal)
    }
}

fn find<'a>(pairs: &'a [(String, String)], key: &str) -> Option<&'a str> {
    pairs
        .iter()
        .find(|(name, _)| name == key)
        .map(|(_, value)| value.as_str())
}

/// A whole file.
#[derive(Debug, Clone, PartialEq)]
pub struct Document {
    /// Sections in file order.
    pub sections: Vec<Section>,
}

impl Document {
    /// Every section with tag `tag`.
    pub fn sections<'a>(&'a self, tag: &'a str) -> impl Iterator<Item = &'a Section> + 'a {
        self.sections
            .iter()
            .filter(move |section| section.tag == tag)
    }

    /// The first section with tag `tag`.
    pub fn section(&self, tag: &str) -> Option<&Section> {
        self.sections.iter().find(|section| section.tag == tag)
    }
}

/// Why a file could not be read.
#[derive(Debug, Clone, PartialEq)]
pub struct ParseError {
    /// 1-based line.
    pub line: usize,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: {}", self.line, self.message)
    }
}

/// Reads a Godot text file.
pub fn parse(text: &str) -> Result<Document, ParseError> {
    let mut reader = Reader {
        chars: text.chars().collect(),
        at: 0,
        line: 1,
    };
    let mut sections = vec![Section {
        tag: String::new(),
        attributes: Vec::new(),
        properties: Vec::new(),
        line: 1,
    }];
    loop {
        reader.skip_blank();
        match reader.peek() {
            None => break,
            Some(';') => reader.skip_line(),
            Some('[') => sections.push(reader.header()?),
            Some(_) => {
                let property = reader.property()?;
                let section = sections.last_mut().expect("there is always a section");
                if section.properties.iter().any(|(key, _)| *key == property.0) {
                    return Err(reader.error(format!("property `{}` set twice", property.0)));
                }
                section.properties.push(property);
            }
        }
    }
    if sections[0].properties.is_empty() {
        sections.remove(0);
    }
    Ok(Document { sections })
}

struct Reader {
    chars: Vec<char>,
    at: usize,
    line: usize,
}

impl Reader {
    fn peek(&self) -> Option<char> {
        self.chars.get(self.at).copied()
    }

    fn next(&mut self) -> Option<char> {
        let c = self.peek()?;
        self.at += 1;
        if c == '\n' {
            self.line += 1;
        }
        Some(c)
    }

    fn error(&self, message: impl Into<String>) -> ParseError {
        ParseError {
            line: self.line,
            message: message.into(),
        }
    }

    fn skip_blank(&mut self) {
        while self.peek().is_some_and(char::is_whitespace) {
            self.next();
        }
    }

    fn skip_spaces(&mut self) {
        while self.peek().is_some_and(|c| c == ' ' || c == '\t') {
            self.next();
        }
    }

    fn skip_line(&mut self) {
        while let Some(c) = self.next() {
            if c == '\n' {
                break;
            }
        }
    }

    /// `[tag key=value ...]` on one line.
    fn header(&mut self) -> Result<Section, ParseError> {
        let line = self.line;
        self.next(); // '['
        let tag = self.word();
        if tag.is_empty() {
            return Err(self.error("a section header needs a tag"));
        }
        let mut attributes: Vec<(String, String)> = Vec::new();
        loop {
            self.skip_spaces();
            match self.peek() {
                Some(']') => {
                    self.next();
                    break;
                }
                None | Some('\n') | Some('\r') => {
                    return Err(self.error(format!("header [{tag} ...] is not closed with ]")));
                }
                Some(_) => {
                    let key = self.word();
                    if key.is_empty() {
                        return Err(self.error(format!("unexpected text in header [{tag} ...]")));
                    }
                    self.skip_spaces();
                    if self.next() != Some('=') {
                        return Err(self.error(format!("attribute `{key}` needs =value")));
                    }
                    self.skip_spaces();
                    let value = self.value(true)?;
                    if value.is_empty() {
                        return Err(self.error(format!("attribute `{key}` has no value")));
                    }
                    if attributes.iter().any(|(name, _)| *name == key) {
                        return Err(self.error(format!("attribute `{key}` given twice")));
                    }
                    attributes.push((key, value));
                }
            }
        }
        self.skip_spaces();
        match self.peek() {
            None | Some('\n') | Some('\r') => {}
            Some(c) => return Err(self.error(format!("unexpected `{c}` after a header"))),
        }
        Ok(Section {
            tag,
            attributes,
            properties: Vec::new(),
            line,
        })
    }

    /// `key = value`, the value possibly spanning lines inside brackets.
    fn property(&mut self) -> Result<(String, String), ParseError> {
        let mut key = String::new();
        while let Some(c) = self.peek() {
            if c == '=' || c.is_whitespace() {
                break;
            }
            key.push(c);
            self.next();
        }
        self.skip_spaces();
        if key.is_empty() || self.next() != Some('=') {
            return Err(self.error(format!("expected `key = value`, found `{key}`")));
        }
        self.skip_spaces();
        let value = self.value(false)?;
        if value.is_empty() {
            return Err(self.error(format!("property `{key}` has no value")));
        }
        self.skip_spaces();
        match self.peek() {
            None | Some('\n') | Some('\r') => Ok((key, value)),
            Some(c) => Err(self.error(format!("unexpected `{c}` after the value of `{key}`"))),
        }
    }

    /// A key or tag: letters, digits and `_ / . -`.
    fn word(&mut self) -> String {
        let mut word = String::new();
        while let Some(c) = self.peek() {
            if c.is_alphanumeric() || "_/.-".contains(c) {
                word.push(c);
                self.next();
            } else {
                break;
            }
        }
        word
    }

    /// A value up to the end of the line (or, in a header, up to a space or `]`) with every
    /// bracket closed and every string terminated.
    fn value(&mut self, in_header: bool) -> Result<String, ParseError> {
        let start_line = self.line;
        let mut text = String::new();
        let mut open: Vec<char> = Vec::new();
        while let Some(c) = self.peek() {
            if open.is_empty() {
                let ends = if in_header {
                    c == ' ' || c == '\t' || c == ']' || c == '\n' || c == '\r'
                } else {
                    c == '\n' || c == '\r'
                };
                if ends {
                    break;
                }
            }
            match c {
                '"' => {
                    text.push_str(&self.string_source()?);
                    continue;
                }
                '(' | '[' | '{' => open.push(c),
                ')' | ']' | '}' => {
                    let expected = match open.pop() {
                        Some('(') => ')',
                        Some('[') => ']',
                        Some('{') => '}',
                        _ => return Err(self.error(format!("unmatched `{c}`"))),
                    };
                    if c != expected {
                        return Err(self.error(format!("`{c}` closes a bracket opened with the wrong kind, expected `{expected}`")));
                    }
                }
                '\n' if in_header => {
                    return Err(self.error("a header value cannot span lines"));
                }
                _ => {}
            }
            text.push(c);
            self.next();
        }
        if let Some(bracket) = open.last() {
            return Err(ParseError {
                line: start_line,
                message: format!("`{bracket}` opened here is never closed"),
            });
        }
        Ok(text.trim_end().to_string())
    }

    /// A whole `"..."` literal as source text (escapes kept).
    fn string_source(&mut self) -> Result<String, ParseError> {
        let start_line = self.line;
        let mut text = String::from('"');
        self.next();
        loop {
            match self.next() {
                None => {
                    return Err(ParseError {
                        line: start_line,
                        message: "string is never terminated".into(),
                    });
                }
                Some('\\') => {
                    text.push('\\');
                    match self.next() {
                        Some(c) => text.push(c),
                        None => {
                            return Err(ParseError {
                                line: start_line,
                                message: "string ends in an escape".into(),
                            });
                        }
                    }
                }
                Some('"') => {
                    text.push('"');
                    return Ok(text);
                }
                Some(c) => text.push(c),
            }
        }
    }
}

/// Decodes a string literal: `"text"`, or a StringName `&"text"` or NodePath `^"text"`.
/// `None` when `source` is not exactly one literal.
pub fn string_literal(source: &str) -> Option<String> {
    let source = source.trim();
    let body = source
        .strip_prefix("&\"")
        .or_else(|| source.strip_prefix("^\""))
        .or_else(|| source.strip_prefix('"'))?;
    let (text, rest) = decode_string(body)?;
    rest.is_empty().then_some(text)
}

/// Decodes a string body (after the opening quote) up to its closing quote; returns the text
/// and what follows the quote.
fn decode_string(body: &str) -> Option<(String, &str)> {
    let mut text = String::new();
    let mut chars = body.char_indices();
    while let Some((i, c)) = chars.next() {
        match c {
            '"' => return Some((text, &body[i + 1..])),
            '\\' => match chars.next()?.1 {
                'n' => text.push('\n'),
                't' => text.push('\t'),
                'r' => text.push('\r'),
                other => text.push(other),
            },
            other => text.push(other),
        }
    }
    None
}

/// Every string literal inside a value's source text, decoded, in order.
pub fn strings_in(source: &str) -> Vec<String> {
    let mut found = Vec::new();
    let mut rest = source;
    while let Some(start) = rest.find('"') {
        match decode_string(&rest[start + 1..]) {
            Some((text, after)) => {
                found.push(text);
                rest = after;
            }
            None => break,
        }
    }
    found
}

/// A call `Name(arg, arg)`: its name and its arguments' source text, split at top-level commas.
pub fn call(source: &str) -> Option<(String, Vec<String>)> {
    let source = source.trim();
    let open = source.find('(')?;
    let name = &source[..open];
    if name.is_empty() || !name.chars().all(|c| c.is_alphanumeric() || c == '_') {
        return None;
    }
    let inner = source[open + 1..].strip_suffix(')')?;
    let mut args = Vec::new();
    let mut depth = 0i32;
    let mut in_string = false;
    let mut escaped = false;
    let mut current = String::new();
    for c in inner.chars() {
        if in_string {
            current.push(c);
            if escaped {
                escaped = false;
            } else if c == '\\' {
                escaped = true;
            } else if c == '"' {
                in_string = false;
            }
            continue;
        }
        match c {
            '"' => in_string = true,
            '(' | '[' | '{' => depth += 1,
            ')' | ']' | '}' => depth -= 1,
            ',' if depth == 0 => {
                args.push(current.trim().to_string());
                current.clear();
                continue;
            }
            _ => {}
        }
        current.push(c);
    }
    if !current.trim().is_empty() {
        args.push(current.trim().to_string());
    }
    Some((name.to_string(), args))
}

/// Every `Name("id")` reference (`ExtResource`, `SubResource`) in a value's source text.
pub fn references<'a>(source: &'a str, name: &'a str) -> Vec<String> {
    let pattern = format!("{name}(");
    let mut found = Vec::new();
    let mut rest = source;
    while let Some(start) = rest.find(&pattern) {
        let after = &rest[start + pattern.len()..];
        match after.find(')') {
            Some(end) => {
                if let Some(id) = string_literal(&after[..end]) {
                    found.push(id);
                }
                rest = &after[end..];
            }
            None => break,
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    const SCENE: &str = r#"[gd_scene format=3]

[ext_resource type="Script" path="res://a b.gd" id="1_x"]

[sub_resource type="BoxShape3D" id="Box"]
size = Vector3(1, 2, 3)

[node name="Root" type="Node3D"]

[node name="Child" type="Node" parent="."]
script = ExtResource("1_x")
list = Array[StringName]([&"a", &"b]"])
text = "multi
line \"quoted\""
dict = {
"key": [1, 2,
3]
}

[connection signal="ready" from="Child" to="." method="_on_ready"]
"#;

    #[test]
    fn reads_a_scene() {
        let doc = parse(SCENE).unwrap();
        let tags: Vec<&str> = doc.sections.iter().map(|s| s.tag.as_str()).collect();
        assert_eq!(
            tags,
            [
                "gd_scene",
                "ext_resource",
                "sub_resource",
                "node",
                "node",
                "connection"
            ]
        );
        let ext = doc.section("ext_resource").unwrap();
        assert_eq!(
            ext.attribute_string("path").as_deref(),
            Some("res://a b.gd")
        );
        assert_eq!(ext.line, 3);
        let child = doc.sections("node").nth(1).unwrap();
        assert_eq!(child.attribute("parent"), Some("\".\""));
        assert_eq!(
            references(child.property("script").unwrap(), "ExtResource"),
            ["1_x"]
        );
        assert_eq!(
            child.property_string("text").as_deref(),
            Some("multi\nline \"quoted\"")
        );
        assert_eq!(child.property("dict"), Some("{\n\"key\": [1, 2,\n3]\n}"));
        assert_eq!(strings_in(child.property("list").unwrap()), ["a", "b]"]);
        let connection = doc.section("connection").unwrap();
        assert_eq!(
            connection.attribute_string("method").as_deref(),
            Some("_on_ready")
        );
    }

    #[test]
    fn reads_project_style_files() {
        let doc =
            parse("; comment\nconfig_version=5\n\n[physics]\n3d/physics_engine=\"Jolt Physics\"\n")
                .unwrap();
        assert_eq!(doc.sections[0].tag, "");
        assert_eq!(doc.sections[0].property("config_version"), Some("5"));
        let physics = doc.section("physics").unwrap();
        assert_eq!(
            physics.property_string("3d/physics_engine").as_deref(),
            Some("Jolt Physics")
        );
        // No properties before the first header: no empty section.
        assert_eq!(parse("[a]\nb=1\n").unwrap().sections.len(), 1);
    }

    #[test]
    fn decodes_values() {
        assert_eq!(
            string_literal("&\"move_left\"").as_deref(),
            Some("move_left")
        );
        assert_eq!(
            string_literal("^\"../Player\"").as_deref(),
            Some("../Player")
        );
        assert_eq!(string_literal("\"a\" \"b\""), None);
        assert_eq!(string_literal("ExtResource(\"1\")"), None);
        assert_eq!(
            call("NodePath(\"a,b\")"),
            Some(("NodePath".to_string(), vec!["\"a,b\"".to_string()]))
        );
        let (name, args) = call("Transform3D(1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0.9, 0)").unwrap();
        assert_eq!(name, "Transform3D");
        assert_eq!(args.len(), 12);
        assert_eq!(call("(1)"), None);
        assert_eq!(call("Vector3 1, 2"), None);
        assert_eq!(
            references("[SubResource(\"a\"), SubResource(\"b\")]", "SubResource"),
            ["a", "b"]
        );
    }

    fn error_of(text: &str) -> ParseError {
        match parse(text) {
            Ok(doc) => panic!("expected an error for {text:?}, read {doc:?}"),
            Err(error) => error,
        }
    }

    #[test]
    fn rejects_an_unclosed_header() {
        let error = error_of("[gd_scene format=3]\n[node name=\"A\" type=\"Node\"\n");
        assert_eq!(error.line, 2);
        assert!(error.message.contains("not closed"), "{error}");
    }

    #[test]
    fn rejects_an_unterminated_string() {
        let error = error_of("[node name=\"A]\n");
        assert!(error.message.contains("never terminated"), "{error}");
        let error = error_of("[a]\ntext = \"open\n\nmore = 1\n");
        assert_eq!(error.line, 2);
    }

    #[test]
    fn rejects_unbalanced_brackets() {
        let error = error_of("[a]\nlist = [1, 2\nother = 3\n");
        assert_eq!(error.line, 2, "{error}");
        assert!(error.message.contains("never closed"), "{error}");
        let error = error_of("[a]\nv = Vector3(1, 2, 3]\n");
        assert!(error.message.contains("wrong kind"), "{error}");
        let error = error_of("[a]\nv = 1)\n");
        assert!(error.message.contains("unmatched"), "{error}");
    }

    #[test]
    fn rejects_malformed_lines() {
        assert!(
            error_of("[a]\njust words\n")
                .message
                .contains("key = value")
        );
        assert!(error_of("[a]\nkey =\n").message.contains("no value"));
        assert!(
            error_of("[a]\nkey = 1\nkey = 2\n")
                .message
                .contains("twice")
        );
        assert!(error_of("[node name]\n").message.contains("=value"));
        assert!(
            error_of("[node name=\"a\" name=\"b\"]\n")
                .message
                .contains("twice")
        );
        assert!(
            error_of("[node name=\"a\"] trailing\n")
                .message
                .contains("after a header")
        );
        assert!(error_of("[]\n").message.contains("tag"));
        assert!(
            error_of("[a]\nkey = 1 2\"x\n")
                .message
                .contains("never terminated")
        );
    }
}
