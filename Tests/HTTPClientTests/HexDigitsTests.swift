import Foundation
import HTTPClient
import Testing

@Suite("hexDigits")
struct HexDigitsTests {
    @Test("two lowercase digits a byte, leading zeros kept")
    func bytes() {
        #expect([UInt8]().hexDigits == "")
        #expect([0x00, 0x0F, 0x10, 0xA5, 0xFF].hexDigits == "000f10a5ff")
    }

    @Test("every byte as String(format: \"%02x\") writes it, the format it replaced (cache keys and ETags keep their bytes)")
    func everyByte() {
        let bytes = (0...255).map { UInt8($0) }
        #expect(bytes.hexDigits == bytes.map { String(format: "%02x", $0) }.joined())
    }
}
