// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

/// A minimal contract wallet for Sign-In with Ethereum tests: ERC-1271 says a signature is
/// valid when it is the owner's ECDSA signature of the hash.
contract TestSmartWallet {
    address public owner;

    constructor(address owner_) {
        owner = owner_;
    }

    function isValidSignature(bytes32 hash, bytes calldata signature) external view returns (bytes4) {
        if (signature.length != 65) return 0xffffffff;
        bytes32 r;
        bytes32 s;
        uint8 v;
        assembly {
            r := calldataload(signature.offset)
            s := calldataload(add(signature.offset, 32))
            v := byte(0, calldataload(add(signature.offset, 64)))
        }
        address signer = ecrecover(hash, v, r, s);
        return signer != address(0) && signer == owner ? bytes4(0x1626ba7e) : bytes4(0xffffffff);
    }
}

/// CREATE2 factory, so a wallet has an address before it is deployed (ERC-6492 tests).
contract TestSmartWalletFactory {
    function deploy(address owner, bytes32 salt) external returns (address) {
        return address(new TestSmartWallet{salt: salt}(owner));
    }
}
