// Hardhat network (EDR) for the local chain of the tests: chain id 4663, automine, fixed
// funded accounts. Nothing is compiled by Hardhat (contracts are compiled with solc-js in
// tests/support/chain/compile.ts), so no compiler is ever downloaded.
const os = require('node:os');
const path = require('node:path');
const { keccak256, toHex } = require('viem');

const TEST_KEYS = Array.from({ length: 10 }, (_, i) => keccak256(toHex(`svc-test-account-${i}`)));

module.exports = {
  networks: {
    hardhat: {
      chainId: 4663,
      hardfork: 'cancun',
      mining: { auto: true, interval: 0 },
      accounts: TEST_KEYS.map((privateKey) => ({ privateKey, balance: '1000000000000000000000000' })),
      // Failed transactions are still mined and answer with their hash, as on a real node.
      throwOnTransactionFailures: false,
      // A reverting eth_call answers with a JSON-RPC error, as on a real node. (With false,
      // EDR returns the revert data as the call's result, which a reader would decode as a
      // value: an Error(string) selector read back as a bytes32.)
      throwOnCallFailures: true,
    },
  },
  paths: {
    sources: path.join(__dirname, 'no-hardhat-sources'),
    cache: path.join(os.tmpdir(), 'svc-hardhat-cache'),
    artifacts: path.join(os.tmpdir(), 'svc-hardhat-artifacts'),
  },
};
module.exports.TEST_KEYS = TEST_KEYS;
