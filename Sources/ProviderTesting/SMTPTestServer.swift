import Foundation

/// A real SMTP server on loopback for the email sink's tests: Python's aiosmtpd (`.ci/run` installs it), with
/// STARTTLS from a certificate of `TestCertificates`, or TLS from the first byte (`smtps`), and AUTH checked
/// against one login and password. Every message it takes is one JSON line on its stdout, read back by
/// `messages`. `stop()` ends it.
public final class SMTPTestServer: Sendable {
    /// One message as the server took it.
    public struct Message: Sendable {
        /// The envelope's sender (`MAIL FROM`).
        public var from: String
        /// The envelope's recipients (`RCPT TO`), in order.
        public var recipients: [String]
        /// The message's bytes (headers and body) as received.
        public var data: Data
        /// Whether the session was encrypted (STARTTLS or smtps) when the message came.
        public var encrypted: Bool
        /// The login that authenticated, if any.
        public var login: String?

        /// The message as UTF-8 text (lossy).
        public var text: String { String(decoding: data, as: UTF8.self) }
    }

    /// How the server offers encryption.
    public enum Mode: String, Sendable {
        /// Plain SMTP offering STARTTLS.
        case startTLS = "starttls"
        /// TLS from the first byte (`smtps://`).
        case implicitTLS = "implicit"
        /// Plain SMTP that offers no STARTTLS.
        case plain
    }

    private let process: LiveProcess
    /// The loopback port the server listens on.
    public let port: Int

    private init(process: LiveProcess, port: Int) {
        self.process = process
        self.port = port
    }

    /// Starts a server; `login`/`password`: the one account AUTH accepts (AUTH only over TLS, as aiosmtpd
    /// requires by default); `failures`: how many messages are refused with 451 before one is taken.
    public static func start(
        mode: Mode, login: String? = nil, password: String? = nil, failures: Int = 0, port: Int = 0
    ) async throws -> SMTPTestServer {
        let certificates = try await TestCertificates.shared()
        let directory = ScratchDirectory.path("smtp-server")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let script = directory.appendingPathComponent("server.py")
        try Data(Self.script.utf8).write(to: script)
        let process = try LiveProcess.start(
            URL(fileURLWithPath: "/usr/bin/env"),
            ["python3", script.path, mode.rawValue, certificates.localhost.certificate.path, certificates.localhost.key.path,
             login ?? "", password ?? "", String(failures), String(port)],
            environment: ProcessInfo.processInfo.environment)
        guard await process.waitFor({ stdout, _ in readyLine(in: stdout) != nil }) else {
            process.signal(SIGKILL)
            let result = await process.finish()
            throw Failure(message: "the SMTP test server did not start: \(result.stdout) \(result.stderr)")
        }
        let output = process.standardOutput
        guard let port = readyLine(in: output).flatMap({ Int($0.dropFirst(6)) }), port > 0 else {
            process.signal(SIGKILL)
            _ = await process.finish()
            throw Failure(message: "the SMTP test server's ready line has no port: \(output.debugDescription)")
        }
        return SMTPTestServer(process: process, port: port)
    }

    /// The server's whole `ready PORT` line, once it is there: with PYTHONUNBUFFERED set, print writes "ready "
    /// and the port separately.
    private static func readyLine(in stdout: String) -> Substring? {
        stdout.split(separator: "\n", omittingEmptySubsequences: false).dropLast().first { $0.hasPrefix("ready ") }
    }

    /// The server could not be started, or its ready line named no port.
    public struct Failure: Error, CustomStringConvertible {
        /// What went wrong, with what the server printed.
        public var message: String
        /// The ``message``.
        public var description: String { message }
    }

    /// Every message taken so far.
    public func messages() -> [Message] {
        let output = process.standardOutput
        return output.split(separator: "\n").compactMap { line -> Message? in
            guard line.hasPrefix("{"), let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            else { return nil }
            return Message(
                from: object["from"] as? String ?? "", recipients: object["to"] as? [String] ?? [],
                data: Data(base64Encoded: object["data"] as? String ?? "") ?? Data(),
                encrypted: object["tls"] as? Bool ?? false, login: object["login"] as? String)
        }
    }

    /// Suspends until `count` messages were taken (false when the server ended first). Call it only when the
    /// client was told they were taken: the line may still be on its way through the pipe.
    public func waitForMessages(_ count: Int) async -> Bool {
        await process.waitFor { stdout, _ in stdout.split(separator: "\n").filter { $0.hasPrefix("{") }.count >= count }
    }

    /// Stops the server and waits for it to exit.
    public func stop() async {
        process.signal(SIGTERM)
        _ = await process.finish()
    }

    static let script = #"""
        import asyncio, base64, json, ssl, sys
        from aiosmtpd.smtp import SMTP, AuthResult

        mode, certificate, key, login, password, failures, port = sys.argv[1:8]
        remaining = [int(failures)]
        context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
        context.load_cert_chain(certificate, key)

        class Handler:
            async def handle_DATA(self, server, session, envelope):
                if remaining[0] > 0:
                    remaining[0] -= 1
                    return "451 4.3.0 try again later"
                print(json.dumps({
                    "from": envelope.mail_from, "to": envelope.rcpt_tos,
                    "data": base64.b64encode(envelope.original_content).decode(),
                    # STARTTLS sets session.ssl; TLS from the first byte (smtps) only shows on the transport.
                    "tls": session.ssl is not None or server.transport.get_extra_info("ssl_object") is not None,
                    "login": getattr(session, "aggregate_login", None),
                }), flush=True)
                return "250 2.0.0 OK"

        def authenticate(server, session, envelope, mechanism, data):
            ok = bool(login) and data.login.decode() == login and data.password.decode() == password
            if ok:
                session.aggregate_login = login
            return AuthResult(success=ok, handled=False)

        def factory():
            return SMTP(Handler(), hostname="localhost",
                        tls_context=context if mode == "starttls" else None,
                        authenticator=authenticate if login else None,
                        # aiosmtpd counts only STARTTLS as TLS; smtps is encrypted from the first byte.
                        auth_require_tls=mode != "implicit")

        loop = asyncio.new_event_loop()
        server = loop.run_until_complete(loop.create_server(
            factory, host="127.0.0.1", port=int(port), ssl=context if mode == "implicit" else None))
        print("ready", server.sockets[0].getsockname()[1], flush=True)
        loop.run_forever()
        """#
}
