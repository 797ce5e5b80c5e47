import TrustCore
import TrustPolicy

/// The keys this example denies: one that no vector uses, standing in for a real blocklist.
public enum DenyList {
    public static let keys: Set<SPKIPin> = [
        try! SPKIPin("sha256/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA="),
    ]
}
