import Foundation

/// JSON numbers: the grammar and the values, shared by the parser and the CSV reader's cell typing.
extension JSONParser {
    /// What `scanNumber` found.
    package enum NumberScan {
        /// A number's text ends before `end`.
        case number(end: Int, isInteger: Bool)
        /// Not a number: why, and the byte where that was found.
        case invalid(String, at: Int)
    }

    /// The JSON number grammar from `start` (a '-' or a digit): where the number ends, or why it is not one.
    package static func scanNumber(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> NumberScan {
        @inline(__always) func isDigit(_ index: Int) -> Bool {
            index < bytes.count && bytes[index] >= UInt8(ascii: "0") && bytes[index] <= UInt8(ascii: "9")
        }
        var index = start
        var isInteger = true
        if index < bytes.count, bytes[index] == UInt8(ascii: "-") { index += 1 }
        guard isDigit(index) else { return .invalid("invalid number", at: index) }
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
            if isDigit(index) { return .invalid("invalid number (leading zero)", at: index) }
        } else {
            while isDigit(index) { index += 1 }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            isInteger = false
            index += 1
            guard isDigit(index) else { return .invalid("invalid number (no digit after '.')", at: index) }
            while isDigit(index) { index += 1 }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            isInteger = false
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
            guard isDigit(index) else { return .invalid("invalid number (no digit in exponent)", at: index) }
            while isDigit(index) { index += 1 }
        }
        return .number(end: index, isInteger: isInteger)
    }

    /// A scanned number's value: an `Int` when it is an integer that fits, else a finite `Double`; nil when out
    /// of range.
    package static func numberValue(_ digits: UnsafeBufferPointer<UInt8>, isInteger: Bool) -> JSONValue? {
        if isInteger, let value = integer(digits) { return .int(value) }
        // Short numbers make a small (inline, unallocated) String; strtod does the exact rounding.
        guard let value = Double(String(decoding: digits, as: UTF8.self)), value.isFinite else { return nil }
        return .double(value)
    }

    /// `bytes` as one JSON number and nothing else (no whitespace either); nil when they are not one, or it is
    /// out of range. Cheaper than `parse` for text that is often not a number: a miss describes nothing.
    package static func number(exactly bytes: UnsafeBufferPointer<UInt8>) -> JSONValue? {
        guard case .number(let end, let isInteger) = scanNumber(bytes, from: 0), end == bytes.count, end > 0 else { return nil }
        return numberValue(bytes, isInteger: isInteger)
    }

    /// Decimal digits (with an optional leading '-') to an Int, or nil on overflow.
    package static func integer(_ digits: UnsafeBufferPointer<UInt8>) -> Int? {
        var position = 0
        let negative = digits.first == UInt8(ascii: "-")
        if negative { position = 1 }
        var value = 0
        while position < digits.count {
            let digit = Int(digits[position] &- UInt8(ascii: "0"))
            let (shifted, overflow1) = value.multipliedReportingOverflow(by: 10)
            let (next, overflow2) = negative
                ? shifted.subtractingReportingOverflow(digit) : shifted.addingReportingOverflow(digit)
            if overflow1 || overflow2 { return nil }
            value = next
            position += 1
        }
        return value
    }
}
