import Foundation

/// Checks on a PEM bundle of CA certificates (`caFile`, `SSL_CERT_FILE`) before a transport is built with it,
/// so a wrong path is a manifest problem rather than a confusing TLS failure later.
public enum CertificateBundle {
    static let beginMarker = "-----BEGIN CERTIFICATE-----"

    /// Nil when `url` is a readable file with at least one PEM certificate; else what is wrong with it.
    public static func problem(at url: URL) -> String? {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else { return "does not exist" }
        guard !isDirectory.boolValue else { return "is a directory; give a PEM file (SSL_CERT_DIR takes directories)" }
        guard let data = FileManager.default.contents(atPath: url.path) else { return "cannot be read" }
        guard data.range(of: Data(beginMarker.utf8)) != nil else {
            return "holds no PEM certificate (\(beginMarker)); convert a DER file with `openssl x509 -inform der -in CA.cer -out CA.pem`"
        }
        return nil
    }
}
