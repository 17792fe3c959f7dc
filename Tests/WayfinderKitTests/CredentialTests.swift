import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@testable import WayfinderKit

/// The client's credentials reach every request: the API key as TomTom's `key`, the operator
/// token as `Authorization: Bearer`.
@Suite struct CredentialTests {
    @Test func keyAndOperatorTokenAreSent() throws {
        var configuration = WayfinderClient.Configuration()
        configuration.apiKey = "user-key"
        configuration.operatorToken = "op-7f3c9a1e5b2d4c8f"
        let client = WayfinderClient(serverURL: URL(string: "http://127.0.0.1:8080")!, configuration: configuration)
        let request = client.urlRequest(Endpoint("POST", "/traffic/1/speeds", body: Data("1,2,30\n".utf8), contentType: "text/csv"))
        #expect(request.value(forHTTPHeaderField: "Authorization") == "Bearer op-7f3c9a1e5b2d4c8f")
        #expect(request.url?.query?.contains("key=user-key") == true)
        let plain = WayfinderClient(serverURL: URL(string: "http://127.0.0.1:8080")!).urlRequest(Endpoint("GET", "/health"))
        #expect(plain.value(forHTTPHeaderField: "Authorization") == nil)
    }
}
