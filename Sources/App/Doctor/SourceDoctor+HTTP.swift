import Domain
import Foundation
import HTTPClient
import HTTPClientLive
import ProviderKit

extension SourceDoctor {
    /// For a source of an HTTP provider (one with the shared `proxy` option): per host it fetches from, the
    /// CA bundle and proxy a run would use (`NetworkEnvironment`), then DNS and
    /// TCP (to the proxy when one applies: it resolves the host), unless offline.
    func httpChecks(_ resolved: ResolvedOptions) -> [DoctorCheck] {
        guard let provider = container.registry.provider(named: source.provider),
              provider.options.contains(where: { $0.name == "proxy" }) else { return [] }
        let specs = provider.options
        let options = resolved.value
        let placeholders = resolved.placeholders
        let configuration = SourceConfiguration(
            id: source.id, options: placeholders, optionsPath: source.optionsPath,
            baseDirectory: container.manifest.baseDirectory, timeoutSeconds: source.timeoutSeconds,
            concurrency: source.concurrency)
        let reader = OptionsReader(configuration, specs: specs)
        let defaultBase = specs.first { $0.name == "baseURL" }?.defaultValue.flatMap(URL.init(string:))
        let listed = specs.contains { $0.name == "urls" }
            ? (options["urls"]?.arrayValue ?? []).compactMap { $0.stringValue.flatMap(URL.init(string:)) } : []
        let http = HTTPSourceOptions.read(
            reader, defaultBaseURL: defaultBase ?? URL(string: "https://localhost")!, fetchedURLs: listed)
        var client = http.clientConfiguration(for: configuration)
        if client.caFile == nil { client.caFile = container.manifest.defaults.caFile }
        let urls = specs.contains { $0.name == "urls" } ? listed : (defaultBase == nil ? [] : [http.baseURL])
        let network = NetworkEnvironment(environment)
        var checks = network.problems.map { DoctorCheck(.failed, id, $0, fix: "correct the variable or unset it") }
        var seen: Set<String> = []
        for url in urls {
            guard let host = url.host, !host.isEmpty else { continue }
            let port = url.port ?? (url.scheme?.lowercased() == "http" ? 80 : 443)
            guard seen.insert("\(url.scheme ?? "")://\(host):\(port)").inserted else { continue }
            let proxy = network.proxy(for: url, setting: client.proxy)
            checks.append(DoctorCheck(
                .passed, id, "\(url.scheme ?? "https")://\(host):\(port) via libcurl; "
                    + "CA: \(Self.trust(client, network)); proxy: \(proxy?.description ?? "none (direct)")"))
            checks += reachability(host: host, port: port, proxy: proxy)
        }
        return checks
    }

    /// What the transport trusts, as a run would set it up (never a secret: paths only).
    static func trust(_ client: HTTPClientConfiguration, _ network: NetworkEnvironment) -> String {
        if client.insecureSkipVerify { return "none: certificates are not verified (insecureSkipVerify)" }
        if let file = client.caFile { return "\(file.path) besides the system's" }
        if network.overridesTrust {
            return [network.certificateFile.map { "SSL_CERT_FILE \($0)" }, network.certificateDirectory.map { "SSL_CERT_DIR \($0)" }]
                .compactMap { $0 }.joined(separator: ", ")
        }
        return "the system's (\(NetworkEnvironment.systemCertificateFile))"
    }

    private func reachability(host: String, port: Int, proxy: ProxyEndpoint?) -> [DoctorCheck] {
        guard !doctor.offline else {
            return [DoctorCheck(.skipped, id, "DNS and TCP checks of \(proxy.map { "proxy \($0)" } ?? host) skipped (--offline)")]
        }
        let timeout = doctor.connectTimeoutSeconds
        if let proxy {
            switch HostReachability.connect(host: proxy.host, port: proxy.port, timeoutSeconds: timeout) {
            case .success(let address):
                return [DoctorCheck(.passed, id, "proxy \(proxy) accepts TCP connections (\(address))")]
            case .failure(let reason):
                return [DoctorCheck(.failed, id, "proxy \(proxy) does not accept TCP connections: \(reason)",
                                    fix: "check the proxy, or the proxy setting (HTTPS_PROXY, HTTP_PROXY, NO_PROXY, the source's proxy option)")]
            }
        }
        switch HostReachability.resolve(host) {
        case .failure(let reason):
            return [DoctorCheck(.failed, id, "\(host) does not resolve: \(reason)",
                                fix: "check the host name and this machine's DNS; aggregate --offline runs from the cache meanwhile")]
        case .success(let addresses):
            let resolved = DoctorCheck(.passed, id, "\(host) resolves to \(addresses.prefix(2).joined(separator: ", "))")
            switch HostReachability.connect(host: host, port: port, timeoutSeconds: timeout) {
            case .success(let address):
                return [resolved, DoctorCheck(.passed, id, "\(host):\(port) accepts TCP connections (\(address))")]
            case .failure(let reason):
                return [resolved, DoctorCheck(.failed, id, "\(host):\(port) does not accept TCP connections: \(reason)",
                                              fix: "check the network or firewall; behind a proxy set HTTPS_PROXY")]
            }
        }
    }
}
