//! A small, strict JSON reader and writer for the example, so that it needs no crates (a real plugin would use
//! serde_json). Numbers keep their text, so they are written back as they came.

use std::fmt::Write;

use crate::{fail, Failure};

pub enum Json {
    Null,
    Bool(bool),
    /// The number's text, as written: written back unchanged.
    Number(String),
    Str(String),
    Array(Vec<Json>),
    /// Members in the order written.
    Object(Vec<(String, Json)>),
}

impl Json {
    pub fn parse(bytes: &[u8]) -> Result<Json, Failure> {
        let mut parser = Parser { bytes, at: 0 };
        let value = parser.value()?;
        parser.space();
        if parser.at != bytes.len() {
            return parser.fail("the end");
        }
        Ok(value)
    }

    pub fn get(&self, key: &str) -> Option<&Json> {
        match self {
            Json::Object(members) => members.iter().find(|(name, _)| name == key).map(|(_, value)| value),
            _ => None,
        }
    }

    pub fn as_str(&self) -> Option<&str> {
        if let Json::Str(text) = self { Some(text) } else { None }
    }

    pub fn as_number(&self) -> Option<&str> {
        if let Json::Number(text) = self { Some(text) } else { None }
    }

    pub fn write(&self, out: &mut String) {
        match self {
            Json::Null => out.push_str("null"),
            Json::Bool(value) => out.push_str(if *value { "true" } else { "false" }),
            Json::Number(text) => out.push_str(text),
            Json::Str(text) => quote(text, out),
            Json::Array(values) => {
                out.push('[');
                for (index, value) in values.iter().enumerate() {
                    if index > 0 { out.push(','); }
                    value.write(out);
                }
                out.push(']');
            }
            Json::Object(members) => {
                out.push('{');
                for (index, (key, value)) in members.iter().enumerate() {
                    if index > 0 { out.push(','); }
                    quote(key, out);
                    out.push(':');
                    value.write(out);
                }
                out.push('}');
            }
        }
    }
}

/// `text` as a JSON string.
pub fn quote(text: &str, out: &mut String) {
    out.push('"');
    for character in text.chars() {
        match character {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 => { let _ = write!(out, "\\u{:04x}", c as u32); }
            c => out.push(c),
        }
    }
    out.push('"');
}

struct Parser<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Parser<'a> {
    fn fail<T>(&self, expected: &str) -> Result<T, Failure> {
        fail("parse", format!("invalid JSON at byte {}: expected {}", self.at, expected))
    }

    fn peek(&self) -> Option<u8> {
        self.bytes.get(self.at).copied()
    }

    fn space(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\n' | b'\r' | b'\t')) {
            self.at += 1;
        }
    }

    fn expect(&mut self, byte: u8) -> Result<(), Failure> {
        self.space();
        if self.peek() != Some(byte) {
            return self.fail(&format!("'{}'", byte as char));
        }
        self.at += 1;
        Ok(())
    }

    fn value(&mut self) -> Result<Json, Failure> {
        self.space();
        match self.peek() {
            Some(b'{') => self.object(),
            Some(b'[') => self.array(),
            Some(b'"') => Ok(Json::Str(self.string()?)),
            Some(b't') => self.literal("true", Json::Bool(true)),
            Some(b'f') => self.literal("false", Json::Bool(false)),
            Some(b'n') => self.literal("null", Json::Null),
            Some(b'-' | b'0'..=b'9') => self.number(),
            _ => self.fail("a value"),
        }
    }

    fn literal(&mut self, word: &str, value: Json) -> Result<Json, Failure> {
        if !self.bytes[self.at..].starts_with(word.as_bytes()) {
            return self.fail(word);
        }
        self.at += word.len();
        Ok(value)
    }

    fn number(&mut self) -> Result<Json, Failure> {
        let start = self.at;
        while matches!(self.peek(), Some(b'-' | b'+' | b'.' | b'e' | b'E' | b'0'..=b'9')) {
            self.at += 1;
        }
        let text = std::str::from_utf8(&self.bytes[start..self.at]).unwrap_or("");
        if text.parse::<f64>().is_err() {
            return self.fail("a number");
        }
        Ok(Json::Number(text.to_string()))
    }

    fn object(&mut self) -> Result<Json, Failure> {
        self.at += 1;
        let mut members = Vec::new();
        self.space();
        if self.peek() == Some(b'}') {
            self.at += 1;
            return Ok(Json::Object(members));
        }
        loop {
            self.space();
            if self.peek() != Some(b'"') {
                return self.fail("a member's name");
            }
            let key = self.string()?;
            self.expect(b':')?;
            members.push((key, self.value()?));
            self.space();
            match self.peek() {
                Some(b',') => self.at += 1,
                Some(b'}') => {
                    self.at += 1;
                    return Ok(Json::Object(members));
                }
                _ => return self.fail("',' or '}'"),
            }
        }
    }

    fn array(&mut self) -> Result<Json, Failure> {
        self.at += 1;
        let mut values = Vec::new();
        self.space();
        if self.peek() == Some(b']') {
            self.at += 1;
            return Ok(Json::Array(values));
        }
        loop {
            values.push(self.value()?);
            self.space();
            match self.peek() {
                Some(b',') => self.at += 1,
                Some(b']') => {
                    self.at += 1;
                    return Ok(Json::Array(values));
                }
                _ => return self.fail("',' or ']'"),
            }
        }
    }

    fn string(&mut self) -> Result<String, Failure> {
        self.at += 1;
        let mut out = String::new();
        loop {
            let start = self.at;
            while !matches!(self.peek(), None | Some(b'"' | b'\\')) {
                self.at += 1;
            }
            match std::str::from_utf8(&self.bytes[start..self.at]) {
                Ok(text) => out.push_str(text),
                Err(_) => return self.fail("UTF-8"),
            }
            match self.peek() {
                Some(b'"') => {
                    self.at += 1;
                    return Ok(out);
                }
                Some(b'\\') => {
                    self.at += 1;
                    let escaped = self.peek();
                    self.at += 1;
                    match escaped {
                        Some(b'"') => out.push('"'),
                        Some(b'\\') => out.push('\\'),
                        Some(b'/') => out.push('/'),
                        Some(b'b') => out.push('\u{8}'),
                        Some(b'f') => out.push('\u{c}'),
                        Some(b'n') => out.push('\n'),
                        Some(b'r') => out.push('\r'),
                        Some(b't') => out.push('\t'),
                        Some(b'u') => {
                            let mut code = self.hex4()?;
                            if (0xD800..0xDC00).contains(&code) && self.bytes[self.at..].starts_with(b"\\u") {
                                self.at += 2;
                                let low = self.hex4()?;
                                code = 0x10000 + ((code - 0xD800) << 10) + (low.wrapping_sub(0xDC00) & 0x3FF);
                            }
                            out.push(char::from_u32(code).unwrap_or('\u{FFFD}'));
                        }
                        _ => return self.fail("an escape"),
                    }
                }
                _ => return self.fail("'\"'"),
            }
        }
    }

    fn hex4(&mut self) -> Result<u32, Failure> {
        let digits = self.bytes.get(self.at..self.at + 4).and_then(|digits| std::str::from_utf8(digits).ok());
        match digits.and_then(|digits| u32::from_str_radix(digits, 16).ok()) {
            Some(code) => {
                self.at += 4;
                Ok(code)
            }
            None => self.fail("four hex digits"),
        }
    }
}
