//! An example plugin in Rust (ABI v1, docs/PLUGINS.md): fetches a JSON array of records through the host and maps
//! each record to an item. Build: ./build.sh (Debian's rustc 1.63, --target wasm32-unknown-unknown; no crates).
//!
//! Options: {"url": "https://api.example.com/records", "credentials": {"token": "${RECORDS_TOKEN}"}}
//!   url          a JSON array of objects, or an object whose "records" is one; the host must be in allowedHosts
//!   credentials  optional (read by the host): a "token" is sent as `Authorization: Bearer …` by the host
//! A record's "id" (string or number) is its item's id; "title", "subtitle", "url" and "date" (strings) are the
//! item's; every other member goes into the item's fields as it is.
//!
//! The JSON reader below is small and strict so that the example needs no crates; a real plugin would use serde_json.

use std::fmt::Write;

#[link(wasm_import_module = "aggregate_v1")]
extern "C" {
    fn emit(ptr: *const u8, len: u32);
    fn log(level: i32, ptr: *const u8, len: u32);
    fn http_request(ptr: *const u8, len: u32) -> i32;
    fn result_read(ptr: *mut u8, capacity: u32) -> i32;
}

fn send(message: &str) {
    unsafe { emit(message.as_ptr(), message.len() as u32) }
}

fn log_info(text: &str) {
    unsafe { log(1, text.as_ptr(), text.len() as u32) }
}

/// Where the host writes the input. Never freed: an instance lives for one call.
#[no_mangle]
pub extern "C" fn aggregate_alloc(len: u32) -> *mut u8 {
    let mut buffer = Vec::<u8>::with_capacity(len.max(1) as usize);
    let pointer = buffer.as_mut_ptr();
    std::mem::forget(buffer);
    pointer
}

fn input<'a>(ptr: *const u8, len: u32) -> &'a [u8] {
    unsafe { std::slice::from_raw_parts(ptr, len as usize) }
}

/// The options' problems: `url` must be an http(s) URL, and there is no other option.
#[no_mangle]
pub extern "C" fn aggregate_check(ptr: *const u8, len: u32) -> i32 {
    let input = Json::parse(input(ptr, len)).unwrap_or(Json::Null);
    let options = input.get("options");
    match options.and_then(|options| options.get("url")).and_then(Json::as_str) {
        Some(url) if url.starts_with("http://") || url.starts_with("https://") => {}
        _ => send(r#"{"type":"problem","option":"url","message":"required: the http(s) URL of a JSON array of records"}"#),
    }
    if let Some(Json::Object(members)) = options {
        for (key, _) in members.iter().filter(|(key, _)| key != "url") {
            let mut problem = String::from(r#"{"type":"problem","message":"unknown option (the only one is url)","option":"#);
            quote(key, &mut problem);
            problem.push('}');
            send(&problem);
        }
    }
    0
}

#[no_mangle]
pub extern "C" fn aggregate_run(ptr: *const u8, len: u32) -> i32 {
    match run(input(ptr, len)) {
        Ok(count) => {
            log_info(&format!("mapped {} records", count));
            0
        }
        Err(failure) => {
            let mut message = String::from(r#"{"type":"error","kind":"#);
            quote(failure.kind, &mut message);
            message.push_str(r#","message":"#);
            quote(&failure.message, &mut message);
            message.push('}');
            send(&message);
            1
        }
    }
}

/// Why a run failed: a kind of the report's (badResponse, network, parse …) and a message.
struct Failure {
    kind: &'static str,
    message: String,
}

fn fail<T>(kind: &'static str, message: impl Into<String>) -> Result<T, Failure> {
    Err(Failure { kind, message: message.into() })
}

fn run(input: &[u8]) -> Result<usize, Failure> {
    let input = Json::parse(input)?;
    let url = match input.get("options").and_then(|options| options.get("url")).and_then(Json::as_str) {
        Some(url) => url,
        None => return fail("configuration", "options.url is required"),
    };
    let mut request = String::from(r#"{"method":"GET","headers":{"Accept":"application/json"},"url":"#);
    quote(url, &mut request);
    // With a credential named "token" in the source's options.credentials, the host sends it as a bearer token;
    // the plugin only ever sees its name.
    let credentials = match input.get("credentials") {
        Some(Json::Array(names)) => names.iter().any(|name| name.as_str() == Some("token")),
        _ => false,
    };
    if credentials {
        request.push_str(r#","credentials":[{"header":"Authorization","name":"token","prefix":"Bearer "}]"#);
    }
    request.push('}');
    let size = unsafe { http_request(request.as_ptr(), request.len() as u32) };
    let mut answer = vec![0u8; size.max(0) as usize];
    unsafe { result_read(answer.as_mut_ptr(), answer.len() as u32) };
    let answer = Json::parse(&answer)?;
    if let Some(error) = answer.get("error") {
        let message = error.get("message").and_then(Json::as_str).unwrap_or("the request failed");
        return fail("network", message);
    }
    let status = answer.get("status").and_then(Json::as_number).unwrap_or("0");
    if status != "200" {
        // The report's kinds, so that an operator reads what happened: refused, missing, throttled, or down.
        let exhausted = match answer.get("headers") {
            Some(Json::Object(headers)) => headers.iter().any(|(name, value)| {
                name.eq_ignore_ascii_case("x-ratelimit-remaining") && value.as_str() == Some("0")
            }),
            _ => false,
        };
        let kind = match status {
            "403" if exhausted => "rateLimited",
            "401" | "403" => "unauthorized",
            "404" => "notFound",
            "429" => "rateLimited",
            status if status.starts_with('5') => "network",
            _ => "badResponse",
        };
        return fail(kind, format!("{} answered HTTP {}", url, status));
    }
    let text = answer.get("body").and_then(Json::as_str).unwrap_or("");
    let body = Json::parse(text.as_bytes()).map_err(|failure| Failure { kind: "badResponse", ..failure })?;
    let records = match body.get("records").unwrap_or(&body) {
        Json::Array(records) => records,
        _ => return fail("badResponse", "expected a JSON array of records"),
    };
    let mut item = String::with_capacity(512);
    let mut fields = String::with_capacity(256);
    for record in records {
        item.clear();
        fields.clear();
        item.push_str(r#"{"type":"item""#);
        if let Json::Object(members) = record {
            for (key, value) in members {
                match (key.as_str(), value) {
                    ("id", Json::Str(text) | Json::Number(text)) => {
                        item.push_str(r#","id":"#);
                        quote(text, &mut item);
                    }
                    ("title" | "subtitle" | "url" | "date", Json::Str(text)) => {
                        item.push(',');
                        quote(key, &mut item);
                        item.push(':');
                        quote(text, &mut item);
                    }
                    _ => {
                        fields.push(',');
                        quote(key, &mut fields);
                        fields.push(':');
                        value.write(&mut fields);
                    }
                }
            }
        }
        if !fields.is_empty() {
            item.push_str(r#","fields":{"#);
            item.push_str(&fields[1..]);
            item.push('}');
        }
        item.push('}');
        send(&item);
    }
    Ok(records.len())
}

// MARK: - A small JSON reader and writer

enum Json {
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
    fn parse(bytes: &[u8]) -> Result<Json, Failure> {
        let mut parser = Parser { bytes, at: 0 };
        let value = parser.value()?;
        parser.space();
        if parser.at != bytes.len() {
            return parser.fail("the end");
        }
        Ok(value)
    }

    fn get(&self, key: &str) -> Option<&Json> {
        match self {
            Json::Object(members) => members.iter().find(|(name, _)| name == key).map(|(_, value)| value),
            _ => None,
        }
    }

    fn as_str(&self) -> Option<&str> {
        if let Json::Str(text) = self { Some(text) } else { None }
    }

    fn as_number(&self) -> Option<&str> {
        if let Json::Number(text) = self { Some(text) } else { None }
    }

    fn write(&self, out: &mut String) {
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
fn quote(text: &str, out: &mut String) {
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
