// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

interface ITransferFrom {
    function transferFrom(address from, address to, uint256 amount) external returns (bool);
}

/// Reference V1 USDG vault for tests, placed at the V1 vault's registry address. Deposits are
/// ack-gated: `depositWithAcks` checks both acknowledgment hashes against the pinned values
/// (exposed as view functions), pulls USDG with transferFrom and emits the ERC-4626 Deposit
/// event; a plain `deposit` always reverts. `init` replaces a constructor because the
/// runtime code is copied with hardhat_setCode. The setters are test-only levers.
contract TestUsdgVaultV1 {
    address public usdg;
    bytes32 private riskAckPin;
    bytes32 private jurisdictionAckPin;
    bool public ackViewsEnabled;
    bool public paused;
    bool public acceptingPublicDeposits;
    bool private initialized;
    uint256 public totalAssets;
    uint256 public totalSupply;
    uint256 public pings;
    mapping(address => uint256) public balanceOf;

    event Deposit(address indexed sender, address indexed receiver, uint256 assets, uint256 shares);

    function init(address usdg_, bytes32 riskAck, bytes32 jurisdictionAck) external {
        require(!initialized, "initialized");
        initialized = true;
        usdg = usdg_;
        riskAckPin = riskAck;
        jurisdictionAckPin = jurisdictionAck;
        ackViewsEnabled = true;
        acceptingPublicDeposits = true;
    }

    function asset() external view returns (address) {
        return usdg;
    }

    /// Shares carry the asset's 6 decimals (one share per USDG unit deposited).
    function decimals() external pure returns (uint8) {
        return 6;
    }

    function requiredRiskAckHash() external view returns (bytes32) {
        require(ackViewsEnabled, "ack views disabled");
        return riskAckPin;
    }

    function requiredJurisdictionAckHash() external view returns (bytes32) {
        require(ackViewsEnabled, "ack views disabled");
        return jurisdictionAckPin;
    }

    function setPinnedAcks(bytes32 riskAck, bytes32 jurisdictionAck) external {
        riskAckPin = riskAck;
        jurisdictionAckPin = jurisdictionAck;
    }

    function setAckViewsEnabled(bool enabled) external {
        ackViewsEnabled = enabled;
    }

    function setPaused(bool paused_) external {
        paused = paused_;
    }

    function setAcceptingPublicDeposits(bool accepting) external {
        acceptingPublicDeposits = accepting;
    }

    /// A state-changing call that succeeds without any Deposit event.
    function ping() external {
        pings += 1;
    }

    function deposit(uint256, address) external pure returns (uint256) {
        revert("use depositWithAcks");
    }

    function depositWithAcks(uint256 assets, address receiver, bytes32 riskAckHash, bytes32 jurisdictionAckHash)
        external
        returns (uint256 shares)
    {
        require(!paused, "paused");
        require(acceptingPublicDeposits, "not accepting public deposits");
        require(riskAckHash == riskAckPin, "risk ack mismatch");
        require(jurisdictionAckHash == jurisdictionAckPin, "jurisdiction ack mismatch");
        require(assets > 0, "zero assets");
        require(receiver != address(0), "zero receiver");
        require(ITransferFrom(usdg).transferFrom(msg.sender, address(this), assets), "transfer failed");
        shares = assets;
        totalAssets += assets;
        totalSupply += shares;
        balanceOf[receiver] += shares;
        emit Deposit(msg.sender, receiver, assets, shares);
    }
}

/// A contract that is not the vault but emits an event with the vault's Deposit signature:
/// a transaction to it must never count as a vault deposit.
contract TestDepositLookalike {
    event Deposit(address indexed sender, address indexed receiver, uint256 assets, uint256 shares);

    function depositWithAcks(uint256 assets, address receiver, bytes32, bytes32) external returns (uint256) {
        emit Deposit(msg.sender, receiver, assets, assets);
        return assets;
    }
}

/// The access policy of the operator's published interface, which keeps each vault's
/// required acknowledgment hashes (read when a vault has no ack views of its own).
contract TestVaultAccessPolicy {
    struct VaultPolicy {
        bool usPersonsRestricted;
        bytes32 requiredRiskAckHash;
        bytes32 requiredJurisdictionAckHash;
        bool exists;
    }

    mapping(address => VaultPolicy) private policies;

    function setVaultPolicy(address vault, bool usPersonsRestricted, bytes32 riskAck, bytes32 jurisdictionAck) external {
        policies[vault] = VaultPolicy(usPersonsRestricted, riskAck, jurisdictionAck, true);
    }

    function getVaultPolicy(address vault) external view returns (VaultPolicy memory) {
        return policies[vault];
    }
}

/// The deposit-readiness registry (the public deposit gate): a vault is deposit-ready when it
/// is a candidate with deposit terms and audit ready, and not blocked.
contract TestDepositReadinessRegistry {
    struct DepositReadiness {
        bool candidate;
        bool depositTermsReady;
        bool auditReady;
        bool blocked;
    }

    mapping(address => DepositReadiness) private readiness;

    function setDepositReadiness(address vault, bool candidate, bool depositTermsReady, bool auditReady, bool blocked) external {
        readiness[vault] = DepositReadiness(candidate, depositTermsReady, auditReady, blocked);
    }

    function getDepositReadiness(address vault) external view returns (DepositReadiness memory) {
        return readiness[vault];
    }

    function isDepositReady(address vault) external view returns (bool) {
        DepositReadiness memory r = readiness[vault];
        return r.candidate && r.depositTermsReady && r.auditReady && !r.blocked;
    }
}
